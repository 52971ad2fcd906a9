import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

/// One HTTP exchange's outcome: the status, the headers and the whole body.
struct DAVResponse: Sendable {
    let url: String
    let status: Int
    let headers: HTTPHeaders
    let body: Data

    /// The body as text, for calendar data and messages (UTF-8, lossily).
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// The HTTP layer under `CalDAVClient`: one AsyncHTTPClient with the
/// account's TLS trust, Basic credentials on every request, bounded bodies,
/// and every failure turned into a `CalDAVError`.
///
/// Settings, and why:
/// - Basic auth preemptively: every CalDAV server supports it, and asking
///   first would double every request.
/// - Redirects are not followed: a PROPFIND or REPORT redirected by 301/302 is
///   turned into a GET by common clients, and a collection that moved should
///   be re-configured by the user, so it becomes `.redirected` naming the target.
/// - A connection that fails is not retried: AsyncHTTPClient would otherwise
///   retry a refused connection or a failed TLS handshake until the connect
///   timeout, and report only a timeout. The caller's next sync is the retry.
/// - Connect 10 s, read 30 s (idle between bytes), 5 minutes for the whole
///   exchange: a multiget of hundreds of to-dos on a slow server takes time,
///   a server that stops sending does not get to hold a sync forever.
final class DAVTransport: Sendable {
    static let connectTimeout: TimeAmount = .seconds(10)
    static let readTimeout: TimeAmount = .seconds(30)
    static let exchangeTimeout: TimeAmount = .minutes(5)

    private let http: HTTPClient
    private let origin: String
    private let authorization: String
    private let maximumResponseBytes: Int
    private let logger: Logger

    init(account: CalDAVAccount, maximumResponseBytes: Int, logger: Logger) throws(CalDAVError) {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile = account.caFile {
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(caFile)
            } catch {
                throw .invalidAccount("cannot read the CA file \(caFile) as PEM certificates: \(error)")
            }
            guard !certificates.isEmpty else { throw .invalidAccount("the CA file \(caFile) holds no certificate") }
            tls.additionalTrustRoots = [.certificates(certificates)]
        }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: .init(connect: Self.connectTimeout, read: Self.readTimeout))
        configuration.connectionPool.retryConnectionEstablishment = false
        http = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration,
            backgroundActivityLogger: logger)

        // The account's URL is normalised: scheme://authority followed by the path.
        let whole = account.collectionURL.absoluteString
        let path = account.collectionPath
        origin = whole.hasSuffix(path) ? String(whole.dropLast(path.count)) : whole
        let credentials = Data("\(account.user):\(account.password)".utf8).base64EncodedString()
        authorization = "Basic \(credentials)"
        self.maximumResponseBytes = maximumResponseBytes
        self.logger = logger
    }

    /// The full URL of `path` (canonical, percent-encoded), for requests and messages.
    func url(_ path: String) -> String { origin + path }

    /// Sends one request and reads the whole answer, whatever its status; the
    /// caller decides what the status means. Throws only when no complete
    /// answer came: `.connection`, or `.responseTooLarge`.
    func send(
        _ method: HTTPMethod, path: String, headers extraHeaders: [(String, String)] = [],
        body: String? = nil, contentType: String = "application/xml; charset=utf-8"
    ) async throws(CalDAVError) -> DAVResponse {
        let target = url(path)
        var request = HTTPClientRequest(url: target)
        request.method = method
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "User-Agent", value: "todod-caldav")
        for (name, value) in extraHeaders { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(string: body))
        }
        logger.debug("CalDAV request", metadata: ["method": "\(method.rawValue)", "url": "\(target)"])
        do {
            let response = try await http.execute(request, timeout: Self.exchangeTimeout, logger: logger)
            let buffer = try await response.body.collect(upTo: maximumResponseBytes)
            logger.debug(
                "CalDAV response",
                metadata: ["url": "\(target)", "status": "\(response.status.code)", "bytes": "\(buffer.readableBytes)"])
            return DAVResponse(
                url: target, status: Int(response.status.code), headers: response.headers,
                body: Data(buffer.readableBytesView))
        } catch is NIOTooManyBytesError {
            throw .responseTooLarge(url: target, limit: maximumResponseBytes)
        } catch {
            throw .connection(url: target, reason: TransportFailure.reason(for: error, host: hostForMessages))
        }
    }

    /// Closes the connections. Requests after this fail.
    func shutdown() async throws {
        try await http.shutdown()
    }

    private var hostForMessages: String {
        URLComponents(string: origin)?.host ?? origin
    }
}
