/// The one-line summaries todod reports to systemd (`systemctl status` shows them).
public enum StatusText {
    public static func serving(itemCount: Int) -> String {
        "serving \(itemCount) \(itemCount == 1 ? "item" : "items")"
    }
}
