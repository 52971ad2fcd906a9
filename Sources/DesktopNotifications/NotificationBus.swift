import CSystemd
import Glibc

/// A failed sd-bus call: which step, the errno, and the D-Bus error if the
/// peer sent one (`org.freedesktop.DBus.Error.ServiceUnknown` when no
/// notification server runs).
public struct BusError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var code: Int32
    public var name: String?
    public var message: String?

    public var description: String {
        let reason = message ?? String(cString: strerror(code))
        return "\(operation): \(name.map { "\($0): " } ?? "")\(reason)"
    }

    /// The bus is there but nobody owns org.freedesktop.Notifications.
    public var isNoServer: Bool {
        name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }
}

/// The user's session bus, as a notification client uses it: calls `Notify`
/// and `CloseNotification`, and hears `ActionInvoked` and
/// `NotificationClosed`. Built on libsystemd's sd-bus without its variadic
/// calls, which Swift cannot make: messages are assembled field by field.
///
/// Not thread-safe (sd-bus objects are not): `DesktopNotifier` keeps it on
/// one thread of its own.
final class NotificationBus {
    static let destination = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"

    private var bus: OpaquePointer?
    private var slots: [OpaquePointer?] = []
    /// Signals heard during one `process` call.
    private var heard: [NotificationEvent] = []

    /// Connects to `$DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`.
    init() throws(BusError) {
        var opened: OpaquePointer?
        let result = sd_bus_open_user(&opened)
        guard result >= 0, let opened else { throw BusError(operation: "connecting to the session bus", code: -result) }
        bus = opened
        // No sender in the match: the server sends these to us alone (by
        // unique name), and a well-known sender would not match that name.
        for member in ["ActionInvoked", "NotificationClosed"] {
            var slot: OpaquePointer?
            let matched = sd_bus_match_signal(
                opened, &slot, nil, Self.path, Self.interface, member,
                { message, userdata, _ in
                    guard let message, let userdata else { return 0 }
                    Unmanaged<NotificationBus>.fromOpaque(userdata).takeUnretainedValue().heard(message)
                    return 0
                }, Unmanaged.passUnretained(self).toOpaque())
            guard matched >= 0 else {
                sd_bus_flush_close_unref(opened)
                bus = nil
                throw BusError(operation: "listening for \(member)", code: -matched)
            }
            slots.append(slot)
        }
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        if let bus { sd_bus_flush_close_unref(bus) }
    }

    /// Shows `notification`; returns the server's id for it.
    func notify(_ notification: DesktopNotification) throws(BusError) -> UInt32 {
        let message = try methodCall("Notify")
        defer { sd_bus_message_unref(message) }
        try append(message, string: notification.appName)
        var replaces = notification.replacesID
        try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &replaces), "writing Notify")
        try append(message, string: "")  // app_icon
        try append(message, string: notification.summary)
        try append(message, string: notification.body)
        try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "s"), "writing Notify")
        for action in notification.actions {
            try append(message, string: action.key)
            try append(message, string: action.label)
        }
        try check(sd_bus_message_close_container(message), "writing Notify")
        // hints: a{sv} with one entry, "urgency" → byte.
        try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "{sv}"), "writing Notify")
        try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "e")), "sv"), "writing Notify")
        try append(message, string: "urgency")
        try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), "y"), "writing Notify")
        var urgency = notification.urgency.rawValue
        try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "y")), &urgency), "writing Notify")
        for _ in 0..<3 { try check(sd_bus_message_close_container(message), "writing Notify") }
        var timeout = notification.expireTimeout
        try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "i")), &timeout), "writing Notify")

        let reply = try call(message, "Notify")
        defer { sd_bus_message_unref(reply) }
        var id: UInt32 = 0
        try check(sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &id), "reading Notify's reply")
        return id
    }

    /// Takes notification `id` off the screen (the server then reports it
    /// closed, reason 3).
    func close(_ id: UInt32) throws(BusError) {
        let message = try methodCall("CloseNotification")
        defer { sd_bus_message_unref(message) }
        var id = id
        try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &id), "writing CloseNotification")
        sd_bus_message_unref(try call(message, "CloseNotification"))
    }

    /// The server's name and version ("dunst 1.9.0"), for the log.
    func serverName() throws(BusError) -> String {
        let message = try methodCall("GetServerInformation")
        defer { sd_bus_message_unref(message) }
        let reply = try call(message, "GetServerInformation")
        defer { sd_bus_message_unref(reply) }
        var name: UnsafePointer<CChar>?
        var vendor: UnsafePointer<CChar>?
        var version: UnsafePointer<CChar>?
        try check(sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &name), "reading the server's name")
        try check(sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &vendor), "reading the server's name")
        try check(sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &version), "reading the server's name")
        return [name, version].compactMap { $0.map { String(cString: $0) } }.joined(separator: " ")
    }

    /// Handles what has arrived; returns the signals heard.
    func process() throws(BusError) -> [NotificationEvent] {
        heard = []
        var processed = Int32(1)
        while processed > 0 {
            processed = sd_bus_process(bus, nil)
            if processed < 0 { throw BusError(operation: "reading the session bus", code: -processed) }
        }
        return heard
    }

    /// Sleeps until the bus has something to process or `wakeDescriptor`
    /// is readable (a request from another thread): `sd_bus_wait` alone
    /// cannot watch a second descriptor, so this polls both.
    func wait(orUntilReadable wakeDescriptor: Int32) throws(BusError) {
        let descriptor = sd_bus_get_fd(bus)
        let events = sd_bus_get_events(bus)
        guard descriptor >= 0, events >= 0 else { throw BusError(operation: "waiting on the session bus", code: -min(descriptor, events)) }
        var deadline: UInt64 = .max
        _ = sd_bus_get_timeout(bus, &deadline)
        var timeout: Int32 = -1
        if deadline != .max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            timeout = deadline <= nowMicroseconds ? 0 : Int32(min((deadline - nowMicroseconds + 999) / 1000, UInt64(Int32.max)))
        }
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(events), revents: 0), pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        if poll(&descriptors, 2, timeout) < 0 && errno != EINTR {
            throw BusError(operation: "waiting on the session bus", code: errno)
        }
    }

    // MARK: Plumbing

    private func heard(_ message: OpaquePointer) {
        guard let memberPointer = sd_bus_message_get_member(message) else { return }
        var id: UInt32 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &id) >= 0 else { return }
        switch String(cString: memberPointer) {
        case "ActionInvoked":
            var key: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &key) >= 0, let key else { return }
            heard.append(.actionInvoked(id: id, key: String(cString: key)))
        case "NotificationClosed":
            var reason: UInt32 = 0
            guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &reason) >= 0 else { return }
            heard.append(.closed(id: id, reason: NotificationEvent.CloseReason(rawValue: reason) ?? .undefined))
        default: break
        }
    }

    private func methodCall(_ member: String) throws(BusError) -> OpaquePointer {
        var message: OpaquePointer?
        let result = sd_bus_message_new_method_call(bus, &message, Self.destination, Self.path, Self.interface, member)
        guard result >= 0, let message else { throw BusError(operation: "making \(member)", code: -result) }
        return message
    }

    private func append(_ message: OpaquePointer, string: String) throws(BusError) {
        try check(string.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }, "writing a string")
    }

    /// Sends `message` and waits up to 5 s for the reply.
    private func call(_ message: OpaquePointer, _ member: String) throws(BusError) -> OpaquePointer {
        var error = todod_bus_error_null()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sd_bus_call(bus, message, 5_000_000, &error, &reply)
        guard result >= 0, let reply else {
            throw BusError(
                operation: "calling \(member)", code: -result, name: error.name.map { String(cString: $0) },
                message: error.message.map { String(cString: $0) })
        }
        return reply
    }

    private func check(_ result: Int32, _ operation: String) throws(BusError) {
        if result < 0 { throw BusError(operation: operation, code: -result) }
    }
}
