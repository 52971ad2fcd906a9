extension CalDAVClient {
    /// What changed since `token` (all members when it is nil): the
    /// sync-collection REPORT of RFC 6578, sync-level 1, with each member's ETag.
    ///
    /// Sent with Depth 0, as RFC 6578 §3.2 requires (the level is in the body).
    /// A server that truncates its answer (507 for the collection, §3.6) is
    /// asked again from the token it gave until it has said everything.
    ///
    /// Throws `.syncTokenInvalid` when the server no longer knows `token`:
    /// - Radicale 3 answers 403 with a `{DAV:}valid-sync-token` error body, as
    ///   RFC 6578 says; so do SabreDAV (Nextcloud) and others, some with 409;
    /// - Xandikos 0.2.8 fails with 500 (an exception looking the token up).
    /// So a refusal that names `valid-sync-token` is taken at its word, and any
    /// other refusal of a request with a token (400, 403, 409, 410, 412, 5xx)
    /// is checked by asking again without one: if that succeeds, the token
    /// was the problem. The check reads the whole listing once, only then.
    public func changes(since token: String?) async throws(CalDAVError) -> ChangeSet {
        var changed: [String: String] = [:]
        var removed: Set<String> = []
        var currentToken = token
        for _ in 0..<Self.maximumSyncRounds {
            let round = try await syncRound(from: currentToken)
            for (path, etag) in round.changed {
                changed[path] = etag
                removed.remove(path)
            }
            for path in round.removed {
                changed[path] = nil
                removed.insert(path)
            }
            currentToken = round.newToken
            if !round.truncated {
                return ChangeSet(changed: changed, removed: removed.sorted(), newToken: round.newToken)
            }
        }
        throw .malformedResponse(
            url: collectionURL, reason: "the sync report was still truncated after \(Self.maximumSyncRounds) rounds")
    }

    /// How many truncated answers in a row are followed before giving up.
    static var maximumSyncRounds: Int { 1000 }

    private struct SyncRound {
        var changed: [String: String] = [:]
        var removed: [String] = []
        var newToken: String
        var truncated = false
    }

    private func syncRound(from token: String?) async throws(CalDAVError) -> SyncRound {
        let response = try await transport.send(
            .REPORT, path: collectionPath, headers: [("Depth", "0")],
            body: DAVRequestBodies.syncCollection(token: token))
        guard response.status == 207 else {
            if token != nil, try await refusedForTheToken(response) {
                throw .syncTokenInvalid(url: collectionURL)
            }
            throw response.failure(collectionURL: collectionURL)
        }
        let multistatus = try response.multistatus()
        guard let newToken = multistatus.syncToken else {
            throw response.malformed("the sync report has no {DAV:}sync-token")
        }
        var round = SyncRound(newToken: newToken)
        for entry in multistatus.responses {
            for href in entry.hrefs {
                guard let path = path(forHref: href) else {
                    throw response.malformed("the href \"\(href.prefix(200))\" is not a URL")
                }
                if path == collectionPath {
                    if entry.overallStatus == 507 { round.truncated = true }
                    continue
                }
                guard HrefPath.isMember(path, of: collectionPath) else { continue }
                switch entry.overallStatus {
                case 404, 410: round.removed.append(path)
                case let status? where !(200..<300).contains(status): continue
                default: round.changed[path] = entry.property(DAVName.getetag)?.trimmedText ?? ""
                }
            }
        }
        return round
    }

    /// Whether a non-207 answer to a sync report from a token means the token
    /// is no longer valid (see `changes(since:)`).
    private func refusedForTheToken(_ response: DAVResponse) async throws(CalDAVError) -> Bool {
        if DAVErrorBody.conditions(in: response.body).contains(DAVName.validSyncToken) { return true }
        switch response.status {
        case 400, 403, 409, 410, 412, 500...599:
            let check = try await transport.send(
                .REPORT, path: collectionPath, headers: [("Depth", "0")],
                body: DAVRequestBodies.syncCollection(token: nil))
            return check.status == 207
        default:
            return false
        }
    }
}
