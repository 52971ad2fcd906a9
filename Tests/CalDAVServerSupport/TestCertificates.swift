import Foundation
import TestSupport

/// A throwaway certificate authority and a server certificate it signed, for
/// 127.0.0.1 and localhost, made with openssl in the test's folder.
///
/// A CA of its own rather than a self-signed server certificate, because that
/// is what a user with a private server has, and what `--ca-file` is for: the
/// client must trust the CA and still check the server's name against it.
struct TestCertificates {
    /// The CA's certificate (PEM): what a client gives as its CA file.
    let caFile: String
    /// The server's certificate and key (PEM), for the server's TLS settings.
    let certificateFile: String
    let keyFile: String

    static let openssl = "/usr/bin/openssl"

    /// Makes the CA and the server's certificate in `directory`.
    static func make(in directory: String) throws -> TestCertificates {
        let caKey = "\(directory)/ca.key"
        let caFile = "\(directory)/ca.pem"
        let keyFile = "\(directory)/server.key"
        let request = "\(directory)/server.csr"
        let certificateFile = "\(directory)/server.pem"
        let extensions = "\(directory)/server.ext"
        try """
            subjectAltName = IP:127.0.0.1, DNS:localhost
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature, keyEncipherment
            extendedKeyUsage = serverAuth
            """.write(toFile: extensions, atomically: false, encoding: .utf8)
        let elliptic = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(
            ["req", "-x509"] + elliptic + [
                "-keyout", caKey, "-out", caFile, "-days", "2", "-subj", "/CN=todod CalDAV test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: directory)
        try run(["req"] + elliptic + ["-keyout", keyFile, "-out", request, "-subj", "/CN=localhost"], in: directory)
        try run(
            [
                "x509", "-req", "-in", request, "-CA", caFile, "-CAkey", caKey, "-set_serial", "\(UInt32.random(in: 1...UInt32.max))",
                "-out", certificateFile, "-days", "2", "-extfile", extensions,
            ], in: directory)
        return TestCertificates(caFile: caFile, certificateFile: certificateFile, keyFile: keyFile)
    }

    private static func run(_ arguments: [String], in directory: String) throws {
        let output = try ProgramRun.run(
            openssl, arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": directory], directory: directory)
        guard output.succeeded else {
            throw CalDAVTestServerError(
                "openssl \(arguments.first ?? "") failed (status \(output.status)):\n\(output.stderr)")
        }
    }
}
