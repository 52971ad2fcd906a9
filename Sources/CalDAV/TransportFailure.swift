import Foundation
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Words for why no answer came, from the errors AsyncHTTPClient, NIO and
/// NIOSSL throw: a user must be able to tell a server that is down from a
/// certificate that is not trusted from a connection cut mid-answer.
enum TransportFailure {
    static func reason(for error: any Error, host: String) -> String {
        if let error = error as? HTTPClientError { return reason(for: error) }
        if let error = error as? NIOSSLError { return reason(for: error) }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "the server's certificate is not valid for \(host)"
        }
        if let error = error as? NIOConnectionError {
            if let dnsError = error.dnsAError ?? error.dnsAAAAError {
                return "cannot find the host \(error.host) (\(dnsError))"
            }
            if let first = error.connectionErrors.first {
                return reason(for: first.error, host: host)
            }
            return "cannot connect to \(error.host):\(error.port)"
        }
        if let error = error as? IOError { return reason(errno: error.errnoCode, fallback: "\(error)") }
        if let error = error as? ChannelError { return reason(for: error) }
        if let error = error as? HTTPParserError {
            // The parser's word for a connection closed before the length
            // the headers announced had come.
            if case .invalidEOFState = error {
                return "the server closed the connection before its answer was complete"
            }
            return "the server's answer is not valid HTTP (\(error)); is this the right port?"
        }
        if error is CancellationError { return "the request was cancelled" }
        return "the request failed: \(error)"
    }

    private static func reason(for error: HTTPClientError) -> String {
        switch error {
        case .connectTimeout: "could not connect within \(seconds(DAVTransport.connectTimeout)) s (is the server reachable?)"
        case .readTimeout: "the server sent nothing for \(seconds(DAVTransport.readTimeout)) s"
        case .deadlineExceeded: "the exchange took longer than \(seconds(DAVTransport.exchangeTimeout)) s"
        case .remoteConnectionClosed: "the server closed the connection before its answer was complete"
        case .tlsHandshakeTimeout: "the TLS handshake timed out"
        case .uncleanShutdown: "the TLS connection ended without a proper close: the answer may be cut short"
        case .cancelled: "the request was cancelled"
        default: "the request failed: \(error)"
        }
    }

    private static func reason(for error: NIOSSLError) -> String {
        switch error {
        case .handshakeFailed(let cause):
            let text = "\(cause)"
            if text.contains("CERTIFICATE_VERIFY_FAILED") {
                return "TLS failed: the certificate is not trusted; give the server's CA with --ca-file"
            }
            if text.contains("WRONG_VERSION_NUMBER") {
                return "TLS failed: the server does not speak TLS on this port (http:// instead of https://?)"
            }
            return "TLS handshake failed: \(text)"
        case .uncleanShutdown:
            return "the TLS connection ended without a proper close: the answer may be cut short"
        default:
            return "TLS failed: \(error)"
        }
    }

    private static func reason(for error: ChannelError) -> String {
        switch error {
        case .connectTimeout: "could not connect within \(seconds(DAVTransport.connectTimeout)) s"
        case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed:
            "the server closed the connection before its answer was complete"
        default: "the connection failed: \(error)"
        }
    }

    private static func reason(errno code: Int32, fallback: String) -> String {
        switch code {
        case ECONNREFUSED: "connection refused (is the server running, on this port?)"
        case ECONNRESET: "the server reset the connection"
        case EPIPE: "the server closed the connection while the request was being sent"
        case EHOSTUNREACH, ENETUNREACH: "the host is unreachable"
        case ETIMEDOUT: "the connection timed out"
        default: "the connection failed: \(fallback)"
        }
    }

    private static func seconds(_ amount: TimeAmount) -> Int64 {
        amount.nanoseconds / 1_000_000_000
    }
}
