import FoundationEssentials

/// The order people expect titles in: "item 2" before "item 10", "apple" next
/// to "Apple" and "Äpfel" among the a's.
///
/// Runs of ASCII digits compare by their value (leading zeros do not count, and
/// a run may be longer than any integer type); everything else compares by
/// Unicode scalar after lowercasing and removing diacritics. Titles that are
/// equal by those rules are ordered by their plain text, so the order is total
/// and a sort gives the same result every time.
///
/// Sorting 100,000 rows compares each title many times, so the work of folding
/// is done once per title in `NaturalSortKey`; `compare` is the same order for
/// one-off comparisons.
public enum NaturalOrder {
    /// Whether `lhs` comes before `rhs`.
    public static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        NaturalSortKey(lhs) < NaturalSortKey(rhs)
    }

    /// -1, 0 or 1 as `lhs` comes before, is equal to, or comes after `rhs`.
    public static func compare(_ lhs: String, _ rhs: String) -> Int {
        let left = NaturalSortKey(lhs)
        let right = NaturalSortKey(rhs)
        return left < right ? -1 : (right < left ? 1 : 0)
    }
}

/// A title folded once into a form that compares in natural order by
/// comparing arrays of integers.
///
/// Each letter or other character becomes its lowercased, diacritic-free
/// scalar value plus 2. A digit run becomes three parts: the value where `0`
/// would be (`0x30 + 2`, so numbers sort where digits sort among other
/// characters), then the count of its significant digits, then those digits.
/// A longer number is thus larger, and equal lengths compare digit by digit.
/// The plain text breaks ties.
public struct NaturalSortKey: Hashable, Sendable, Comparable {
    /// The folded form, compared first.
    public let folded: [UInt32]
    /// The title as given, compared when the folded forms are equal.
    public let text: String

    private static let offset: UInt32 = 2
    private static let numberMarker: UInt32 = 0x30 + offset

    public init(_ text: String) {
        self.text = text
        var folded: [UInt32] = []
        folded.reserveCapacity(text.unicodeScalars.count)
        var digits: [UInt32] = []

        func flushDigits() {
            guard !digits.isEmpty else { return }
            let significant = digits.drop { $0 == 0 }
            folded.append(Self.numberMarker)
            folded.append(UInt32(significant.count))
            folded.append(contentsOf: significant)
            digits.removeAll(keepingCapacity: true)
        }

        for scalar in text.lowercased().decomposedStringWithCanonicalMappingIfNeeded.unicodeScalars {
            if scalar.value >= 0x30 && scalar.value <= 0x39 {
                digits.append(scalar.value - 0x30)
                continue
            }
            flushDigits()
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            folded.append(scalar.value + Self.offset)
        }
        flushDigits()
        self.folded = folded
    }

    /// One pass over the folded forms; the plain text only when they are equal.
    public static func < (lhs: NaturalSortKey, rhs: NaturalSortKey) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// -1, 0 or 1 as `lhs` comes before, equals or comes after `rhs`: one
    /// pass over the folded forms, read in place (a sort of 100,000 titles
    /// compares them millions of times), and the plain text only when they
    /// are equal.
    public static func compare(_ lhs: borrowing NaturalSortKey, _ rhs: borrowing NaturalSortKey) -> Int {
        let order = lhs.folded.withUnsafeBufferPointer { left in
            rhs.folded.withUnsafeBufferPointer { right -> Int in
                for index in 0..<min(left.count, right.count) where left[index] != right[index] {
                    return left[index] < right[index] ? -1 : 1
                }
                return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
            }
        }
        if order != 0 { return order }
        return lhs.text < rhs.text ? -1 : (rhs.text < lhs.text ? 1 : 0)
    }
}

extension String {
    /// Canonical decomposition (é → e + ◌́), skipped for pure ASCII, which has
    /// nothing to decompose: most titles are ASCII, and sorting many of them
    /// should not pay for Unicode tables it does not need.
    fileprivate var decomposedStringWithCanonicalMappingIfNeeded: String {
        if utf8.allSatisfy({ $0 < 0x80 }) { return self }
        return canonicallyDecomposed
    }
}
