/// Refuses the regular expressions whose matching can take exponential
/// time: a query's `/regex/` is matched against an item on every edit, in
/// every view that holds it, on the daemon's one thread, so one pattern like
/// `/(a+)+$/` against a title of 30 a's and a b would stall every client.
///
/// ICU, like most engines, backtracks; it has no time limit reachable
/// through Foundation. So the shapes that backtrack exponentially are
/// refused when the query is read: a repeated group that itself repeats
/// (`(a+)+`, `(a|ab)*`, `(x*y*)+`), and backreferences (`\1`). What is left
/// (classes, alternations, single repetitions, anchors) matches in time
/// proportional to the title times the pattern. Patterns are also kept short.
enum RegexCost {
    static let maximumLength = 256

    /// Why `pattern` is refused, or nil when it is accepted.
    static func problem(with pattern: String) -> String? {
        if pattern.count > maximumLength {
            return "the pattern is longer than \(maximumLength) characters"
        }
        let scalars = Array(pattern.unicodeScalars)
        // For each open group: whether it holds a repetition or an alternation.
        var groups: [Bool] = []
        var index = 0
        func isRepetition(at position: Int) -> Bool {
            guard position < scalars.count else { return false }
            switch scalars[position] {
            case "*", "+": return true
            case "{":
                // {n} repeats a fixed number of times; {n,} and {n,m} vary.
                var end = position + 1
                while end < scalars.count, scalars[end] != "}" { end += 1 }
                return end < scalars.count && String(String.UnicodeScalarView(scalars[(position + 1)..<end])).contains(",")
            default: return false
            }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\\":
                if index + 1 < scalars.count, ("1"..."9").contains(scalars[index + 1]) {
                    return "backreferences (\\\(scalars[index + 1])) can take exponential time"
                }
                index += 2
                continue
            case "[":
                // A class is one character, whatever it holds.
                index += 1
                if index < scalars.count, scalars[index] == "^" { index += 1 }
                if index < scalars.count, scalars[index] == "]" { index += 1 }
                while index < scalars.count, scalars[index] != "]" {
                    index += scalars[index] == "\\" ? 2 : 1
                }
            case "(":
                groups.append(false)
            case ")":
                let varies = groups.popLast() ?? false
                if varies && isRepetition(at: index + 1) {
                    return "a repeated group that itself repeats or alternates (such as (a+)+) can take exponential time"
                }
                if varies, !groups.isEmpty { groups[groups.count - 1] = true }
            case "|":
                if !groups.isEmpty { groups[groups.count - 1] = true }
            default:
                if isRepetition(at: index), !groups.isEmpty { groups[groups.count - 1] = true }
            }
            index += 1
        }
        return nil
    }
}
