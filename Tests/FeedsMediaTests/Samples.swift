/// Text samples shared by the suites.
enum Samples {
    static let html = "<!DOCTYPE html>\n<html><head><title>x</title></head><body><script>alert(1)</script></body></html>\n"
    static let pdf = "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"
    static let text = "Just some words, nothing more.\n"
    static let xhtml = """
        <?xml version="1.0"?>
        <html xmlns="http://www.w3.org/1999/xhtml"><body><script>alert(1)</script></body></html>
        """

    /// An SVG whose root is the first thing in the file, which libmagic knows by itself.
    static func svg(width: Int = 640, height: Int = 480) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="\#(height)"><rect width="10" height="10"/></svg>"#
    }
}
