import Foundation

/// The error for a status the operation did not expect: the one reading of
/// HTTP statuses shared by every request, so that a 401 says the same thing
/// whichever call met it.
extension DAVResponse {
    /// `collectionURL` is what a 404 names: the requests this is used for
    /// address the collection, or a member whose collection is then gone.
    /// `status` is the response's unless given: a 207 may carry the real
    /// status inside, as Xandikos's answer to a PROPFIND on a missing collection does.
    func failure(collectionURL: String, status givenStatus: Int? = nil) -> CalDAVError {
        let status = givenStatus ?? self.status
        return switch status {
        case 301, 302, 303, 307, 308:
            .redirected(url: url, location: headers.first(name: "Location") ?? "(no Location given)")
        case 401:
            .unauthorized(url: url)
        case 403:
            .forbidden(url: url, condition: DAVErrorBody.conditions(in: body).first?.local)
        case 404, 410:
            .notFound(url: collectionURL)
        case 412:
            .preconditionFailed(url: url)
        case 500...599:
            .serverError(url: url, status: status)
        default:
            .unexpectedStatus(url: url, status: status)
        }
    }

    /// A `.malformedResponse` for this response, saying `reason`.
    func malformed(_ reason: String) -> CalDAVError {
        .malformedResponse(url: url, reason: reason)
    }

    /// The body as a multistatus, for a 207.
    func multistatus() throws(CalDAVError) -> Multistatus {
        do {
            return try Multistatus.parse(body)
        } catch {
            throw malformed(error.reason)
        }
    }

    /// The ETag header as sent, quotes included (it is opaque, and If-Match
    /// wants it back exactly), or nil when there is none.
    var etag: String? {
        guard let value = headers.first(name: "ETag")?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return nil
        }
        return value
    }
}
