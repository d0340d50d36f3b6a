import Foundation
import Testing

@testable import FeedsCDN

/// The worked examples of AWS's documentation, byte for byte: "Signature Calculations for the
/// Authorization Header" and "Authenticating Requests: Using Query Parameters" (S3), and the
/// IAM ListUsers example of the Signature Version 4 guide.
@Suite struct SigV4SignerTests {
    static let s3 = SigV4Signer(
        credentials: .init(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "s3"
    )
    static let may24 = Date(timeIntervalSince1970: 1_369_353_600)  // 20130524T000000Z

    func authorization(_ headers: [(name: String, value: String)]) -> String {
        headers.first { $0.name == "authorization" }?.value ?? ""
    }

    @Test func getObjectWithARange() {
        let headers = Self.s3.sign(
            method: "GET", url: URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")!,
            headers: [("Range", "bytes=0-9")], payloadHash: SigV4Signer.emptyPayloadHash, date: Self.may24)
        #expect(
            authorization(headers)
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
        )
        #expect(headers.contains { $0.name == "x-amz-date" && $0.value == "20130524T000000Z" })
        #expect(headers.contains { $0.name == "host" && $0.value == "examplebucket.s3.amazonaws.com" })
    }

    @Test func theCanonicalRequestOfGetObjectIsAWSs() {
        let url = URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")!
        let canonical = Self.s3.canonicalRequest(
            method: "GET", url: url, query: [],
            headers: [
                ("host", "examplebucket.s3.amazonaws.com"), ("range", "bytes=0-9"),
                ("x-amz-content-sha256", SigV4Signer.emptyPayloadHash), ("x-amz-date", "20130524T000000Z"),
            ],
            payloadHash: SigV4Signer.emptyPayloadHash)
        #expect(
            canonical.text == """
                GET
                /test.txt

                host:examplebucket.s3.amazonaws.com
                range:bytes=0-9
                x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                x-amz-date:20130524T000000Z

                host;range;x-amz-content-sha256;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
        #expect(
            Self.s3.stringToSign(canonical.text, time: "20130524T000000Z", scope: "20130524/us-east-1/s3/aws4_request")
                == """
                AWS4-HMAC-SHA256
                20130524T000000Z
                20130524/us-east-1/s3/aws4_request
                7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972
                """)
    }

    @Test func putObjectWithAReservedCharacterAndAStorageClass() {
        // The key is test$file.text; the signed payload is "Welcome to Amazon S3."
        let headers = Self.s3.sign(
            method: "PUT", url: URL(string: "https://examplebucket.s3.amazonaws.com/test$file.text")!,
            headers: [("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY")],
            payloadHash: "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072", date: Self.may24)
        #expect(
            authorization(headers)
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd"
        )
    }

    @Test func getBucketLifecycleAQueryNameWithoutAValue() {
        let headers = Self.s3.sign(
            method: "GET", url: URL(string: "https://examplebucket.s3.amazonaws.com/?lifecycle")!,
            payloadHash: SigV4Signer.emptyPayloadHash, date: Self.may24)
        #expect(authorization(headers).hasSuffix("Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"))
    }

    @Test func listObjectsSortsTheQuery() {
        let headers = Self.s3.sign(
            method: "GET", url: URL(string: "https://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2")!,
            payloadHash: SigV4Signer.emptyPayloadHash, date: Self.may24)
        #expect(authorization(headers).hasSuffix("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"))
    }

    @Test func thePresignedURLExample() {
        let url = Self.s3.presign(
            method: "GET", url: URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")!, expires: 86400,
            date: Self.may24)
        #expect(
            url.absoluteString
                == "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"
        )
    }

    @Test func theSignatureVersion4GuidesListUsersExample() {
        let iam = SigV4Signer(
            credentials: .init(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
            region: "us-east-1", service: "iam")
        let headers = iam.sign(
            method: "GET", url: URL(string: "https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08")!,
            headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")],
            payloadHash: SigV4Signer.emptyPayloadHash, date: Date(timeIntervalSince1970: 1_440_938_160))
        #expect(
            authorization(headers)
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"
        )
        #expect(!headers.contains { $0.name == "x-amz-content-sha256" }, "only S3 sends the payload hash as a header")
    }

    @Test func aSessionTokenIsSentAndSigned() {
        let signer = SigV4Signer(
            credentials: .init(accessKeyID: "AKID", secretAccessKey: "secret", sessionToken: "token/+="), region: "eu-west-1")
        let headers = signer.sign(
            method: "DELETE", url: URL(string: "http://127.0.0.1:9000/bucket/a/b.txt")!,
            payloadHash: SigV4Signer.emptyPayloadHash, date: Self.may24)
        #expect(headers.contains { $0.name == "x-amz-security-token" && $0.value == "token/+=" })
        #expect(headers.contains { $0.name == "host" && $0.value == "127.0.0.1:9000" })
        #expect(authorization(headers).contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,"))
        let presigned = signer.presign(
            method: "GET", url: URL(string: "http://127.0.0.1:9000/bucket/a/b.txt")!, expires: 60, date: Self.may24)
        #expect(presigned.query?.contains("X-Amz-Security-Token=token%2F%2B%3D") == true)
    }

    @Test func encodingFollowsTheSigningRules() {
        #expect(SigV4Signer.encode("aZ09-._~") == "aZ09-._~")
        #expect(SigV4Signer.encode("a b+c*d/é") == "a%20b%2Bc%2Ad%2F%C3%A9")
        #expect(SigV4Signer.timestamp(Date(timeIntervalSince1970: 1_440_938_160)) == "20150830T123600Z")
    }
}
