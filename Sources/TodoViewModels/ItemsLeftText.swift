/// The wording of the "items left" counter.
///
/// English plural rules for this phrase: "1 item left", every other count
/// (including 0) takes "items".
public enum ItemsLeftText {
    public static func text(forActiveCount count: Int) -> String {
        count == 1 ? "1 item left" : "\(count) items left"
    }
}
