import Testing
import TodoWeb

/// Who gets the page: the Host, the key, the Origin.
@Suite struct AccessGateTests {
    let key = String(repeating: "ab", count: 32)
    var gate: AccessGate { AccessGate(token: key, port: 8636, hostNames: ["todo.example.org"]) }

    func request(_ path: String = "/", host: String? = "127.0.0.1:8636", cookie: String? = nil, origin: String? = nil, webSocket: Bool = false) -> AccessGate.Request {
        AccessGate.Request(path: path, authority: host, cookies: cookie.map { [$0] } ?? [], origin: origin, isWebSocket: webSocket)
    }

    @Test(arguments: ["127.0.0.1:8636", "[::1]:8636", "localhost:8636", "LOCALHOST:8636", "todo.example.org", "todo.example.org:443"])
    func servesItsOwnHostNames(_ host: String) {
        #expect(gate.decide(request(host: host, cookie: "todod-web=\(key)")) == .allow(path: "/"))
    }

    @Test(arguments: ["evil.example:8636", "127.0.0.1:8637", "127.0.0.1", "[::1]", "127.0.0.2:8636", "attacker.todo.example.org"])
    func refusesAnyOtherHostEvenWithTheKey(_ host: String) {
        guard case .refuse(let status, let message) = gate.decide(request(host: host, cookie: "todod-web=\(key)")) else {
            Issue.record("\(host) was let in")
            return
        }
        #expect(status == 403)
        #expect(message.contains("open http://127.0.0.1:8636/"))
    }

    @Test func refusesARequestWithoutHostOrWithOneItCannotRead() {
        #expect(gate.decide(request(host: nil)) == .refuse(status: 400, message: "The request has no Host header."))
        #expect(gate.decide(request(host: "a:b:c")) == .refuse(status: 400, message: "The Host header “a:b:c” cannot be read."))
        #expect(gate.decide(request(host: "[::1")) == .refuse(status: 400, message: "The Host header “[::1” cannot be read."))
    }

    @Test func behindAUnixSocketAnyLoopbackPortWillDo() {
        let proxied = AccessGate(token: key, port: nil, hostNames: [])
        #expect(proxied.decide(request(host: "localhost:8080", cookie: "todod-web=\(key)")) == .allow(path: "/"))
    }

    @Test func withoutTheKeyNothingIsServed() {
        for path in ["/", "/app.js", "/style.css", "/session", "/rpc", "/nothing"] {
            guard case .refuse(401, let message) = gate.decide(request(path)) else {
                Issue.record("\(path) was served without the key")
                continue
            }
            #expect(message.contains("todoctl web"))
        }
    }

    @Test func theKeyInTheAddressMovesIntoACookieAndOutOfTheAddress() {
        #expect(gate.decide(request("/?token=\(key)")) == .signIn(
            location: "/", setCookie: "todod-web=\(key); Path=/; Max-Age=34560000; HttpOnly; SameSite=Strict"))
        guard case .signIn(let location, _) = gate.decide(request("/?view=work&token=\(key)&x=1")) else {
            Issue.record("no sign-in")
            return
        }
        #expect(location == "/?view=work&x=1")
    }

    /// The sign-in redirect goes back to the path asked for, and a path a
    /// browser would read as another host goes back to `/` instead.
    @Test func signingInNeverRedirectsToAnotherHost() {
        for path in ["//evil.example/x", "///evil.example", "/\\evil.example", "/\\/evil.example", "//", "/\t/evil.example", "evil.example"] {
            guard case .signIn(let location, _) = gate.decide(request("\(path)?token=\(key)")) else {
                Issue.record("no sign-in for \(path)")
                continue
            }
            #expect(location == "/", "\(path.debugDescription) redirects to \(location.debugDescription)")
        }
        guard case .signIn(let location, _) = gate.decide(request("//evil.example/x?view=work&token=\(key)")) else {
            Issue.record("no sign-in")
            return
        }
        #expect(location == "/?view=work", "the rest of the query is kept, the host is not")
        guard case .signIn(let kept, _) = gate.decide(request("/index.html/x//y?token=\(key)")) else {
            Issue.record("no sign-in")
            return
        }
        #expect(kept == "/index.html/x//y", "a path of this host's goes back as it was")
    }

    @Test func aWrongKeyIsRefusedWhereverItIs() {
        let wrong = String(repeating: "cd", count: 32)
        #expect({ if case .refuse(401, _) = gate.decide(request("/?token=\(wrong)")) { true } else { false } }())
        #expect({ if case .refuse(401, _) = gate.decide(request(cookie: "todod-web=\(wrong)")) { true } else { false } }())
        #expect({ if case .refuse(401, _) = gate.decide(request(cookie: "todod-web=\(key.dropLast())")) { true } else { false } }())
        let bearer = AccessGate.Request(path: "/", authority: "127.0.0.1:8636", authorization: "Bearer \(wrong)")
        #expect({ if case .refuse(401, _) = gate.decide(bearer) { true } else { false } }())
    }

    @Test func theCookieIsFoundAmongOthersAndABearerKeyWorksForScripts() {
        #expect(gate.decide(request("/app.js", cookie: "theme=dark; todod-web=\(key); other=1")) == .allow(path: "/app.js"))
        let bearer = AccessGate.Request(path: "/session", authority: "127.0.0.1:8636", authorization: "Bearer \(key)")
        #expect(gate.decide(bearer) == .allow(path: "/session"))
    }

    @Test func aWebSocketFromAnotherOriginIsRefused() {
        let cookie = "todod-web=\(key)"
        #expect(gate.decide(request("/rpc", cookie: cookie, origin: "http://127.0.0.1:8636", webSocket: true)) == .allow(path: "/rpc"))
        #expect(gate.decide(request("/rpc", cookie: cookie, webSocket: true)) == .allow(path: "/rpc"))
        for origin in ["http://evil.example", "http://127.0.0.1:9999", "null", "https://todo.example.org.evil.example"] {
            guard case .refuse(403, let message) = gate.decide(request("/rpc", cookie: cookie, origin: origin, webSocket: true)) else {
                Issue.record("a WebSocket from \(origin) was let in")
                continue
            }
            #expect(message.contains(origin))
        }
    }

    @Test func aWebSocketMayCarryTheKeyInItsAddress() {
        #expect(gate.decide(request("/rpc?token=\(key)", webSocket: true)) == .allow(path: "/rpc"))
    }
}
