import Testing

@testable import FeedsMedia

@Suite("SVGRoot")
struct SVGRootTests {
    @Test(
        "documents whose root element is <svg>",
        arguments: [
            "<svg/>",
            "<svg>",
            "<svg\nwidth='1'>",
            "\u{FEFF}  <svg>",
            "<?xml version='1.0'?><?xml-stylesheet href='a.css'?><svg>",
            "<!-- <html> --><svg>",
            "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\"><svg>",
            "<!doctype svg [ <!ENTITY gt \">\"> <!ENTITY x 'y]'> ]>\n<svg>",
        ]
    )
    func svgRoot(document: String) {
        #expect(SVGRoot.isRoot(of: Array(document.utf8)))
    }

    @Test(
        "documents whose root element is something else, or that end too soon",
        arguments: [
            "", "   ", "<html><svg></svg></html>", "<svgx>", "<SVG>", "<svg", "text <svg>", "<!-- <svg> ",
            "<?xml version='1.0'", "<!DOCTYPE svg [ <svg>", "<g><svg/></g>",
        ]
    )
    func otherRoot(document: String) {
        #expect(!SVGRoot.isRoot(of: Array(document.utf8)))
    }

    @Test("only plain-text and XML answers are re-read; HTML never is")
    func refinableTypes() {
        #expect(SVGRoot.mayHide(in: "text/plain"))
        #expect(SVGRoot.mayHide(in: "text/xml"))
        #expect(SVGRoot.mayHide(in: "application/xml"))
        #expect(!SVGRoot.mayHide(in: "text/html"))
        #expect(!SVGRoot.mayHide(in: "application/pdf"))
    }
}
