import PostgresNIO

/// postgres-nio's connection configuration for a location, with TLS as
/// libpq's sslmode means it. NIOSSL's types come through PostgresNIO, which
/// re-exports NIOSSL, so TodoPostgres needs no dependency of its own on it.
extension PostgresLocation {
    /// What `PostgresConnection.connect` needs to reach this location.
    ///
    /// - Parameter password: from ``password(environment:)``; nil for none
    ///   (peer, trust or certificate authentication).
    /// - Throws: NIOSSL's error when the TLS context cannot be made, such
    ///   as an `sslrootcert=` file that cannot be read.
    public func configuration(password: String?) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch host {
        case .tcp(let name, let port):
            configuration = PostgresConnection.Configuration(
                host: name, port: port, username: user, password: password, database: database, tls: try tls()
            )
        case .unixSocket:
            // No TLS on a socket, as libpq: the kernel carries the bytes.
            configuration = PostgresConnection.Configuration(
                unixSocketPath: host.socketPath!, username: user, password: password, database: database
            )
        }
        if let connectTimeout {
            let (seconds, attoseconds) = connectTimeout.components
            configuration.options.connectTimeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
        // Named in pg_stat_activity: the URL's name, or todod's.
        configuration.options.additionalStartupParameters.append(("application_name", applicationName ?? "todod"))
        return configuration
    }

    /// postgres-nio's TLS mode for the sslmode: whether to try TLS, whether
    /// to insist, and (in ``tlsConfiguration``) what to check.
    func tls() throws -> PostgresConnection.Configuration.TLS {
        guard let tlsConfiguration else { return .disable }
        let context = try NIOSSLContext(configuration: tlsConfiguration)
        switch sslMode {
        case .disable: return .disable
        case .allow, .prefer: return .prefer(context)
        case .require, .verifyCA, .verifyFull: return .require(context)
        }
    }

    /// NIOSSL's client configuration for the sslmode; nil for `disable`.
    ///
    /// `allow`, `prefer` and `require` check no certificate, as libpq
    /// (without a root certificate file) does not: they protect against
    /// eavesdropping, not impersonation. But `require` with `sslrootcert=`
    /// checks the chain, as libpq's `require` does when it has a root
    /// certificate: naming authorities means trusting only them. `verify-ca` checks the chain;
    /// `verify-full` also the host name, or the IP address when the host is
    /// one (NIOSSL matches the peer's address then).
    var tlsConfiguration: TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case .disable: return nil
        case .allow, .prefer: configuration.certificateVerification = .none
        case .require:
            configuration.certificateVerification = sslRootCertificate == nil ? .none : .noHostnameVerification
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let sslRootCertificate { configuration.trustRoots = .file(sslRootCertificate) }
        return configuration
    }
}
