import HTTPTypes

/// Headers on every answer, the page's and the refusals' alike.
enum PageHeaders {
    /// Nothing from anywhere else: no script, style, font, frame or
    /// connection but the page's own; no inline script for an injected title
    /// to become. `connect-src 'self'` covers the page's own ws:/wss:.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static func apply(to fields: inout HTTPFields) {
        fields[HTTPField.Name("Content-Security-Policy")!] = contentSecurityPolicy
        fields[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        fields[HTTPField.Name("X-Frame-Options")!] = "DENY"
        // The address may carry the key until the redirect: never pass it on.
        fields[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        fields[HTTPField.Name("Cross-Origin-Opener-Policy")!] = "same-origin"
        fields[HTTPField.Name("Cross-Origin-Resource-Policy")!] = "same-origin"
        // The list is private and changes all the time: no copy in any cache.
        fields[.cacheControl] = "no-store"
    }
}
