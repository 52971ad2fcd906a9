@_spi(_Unicode) import Swift

/// Text operations todod needs that Foundation offers only with ICU: the
/// model is linked into `todoctl` too, and one call into Foundation's
/// string API links all of Foundation and ICU (some 44 MB) into it.
extension String {
    /// Canonical decomposition (é → e + ◌́), from the standard library's own
    /// normalisation tables (SPI of the toolchain todod is built with).
    public var canonicallyDecomposed: String {
        if utf8.allSatisfy({ $0 < 0x80 }) { return self }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: _nfd)
        return String(scalars)
    }

    /// The text folded for comparing as people read it: lower case, without
    /// diacritics (é → e) and with full-width forms as their ASCII letters
    /// (Ａ → a), as Foundation's `folding(options: [.caseInsensitive,
    /// .diacriticInsensitive, .widthInsensitive])` does for these.
    public var foldedForComparison: String {
        var scalars = String.UnicodeScalarView()
        for scalar in _nfd {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            switch scalar.value {
            case 0xFF01...0xFF5E: scalars.append(Unicode.Scalar(scalar.value - 0xFEE0)!)
            case 0x3000: scalars.append(" ")
            default: scalars.append(scalar)
            }
        }
        return String(scalars).lowercased()
    }

    /// Whether the text contains `lowercasedNeedle` (already lowercased),
    /// ignoring case: bytewise for ASCII, which is almost every title, else
    /// by Unicode lower-casing of the whole text. The ASCII path reads both
    /// strings where they lie: a query matches every item of a list.
    public func containsIgnoringCase(lowercasedNeedle needle: String) -> Bool {
        if needle.isEmpty { return true }
        var title = self
        var needle = needle
        let ascii = title.withUTF8 { haystack in
            needle.withUTF8 { target -> Bool? in
                guard haystack.allSatisfy({ $0 < 0x80 }), target.allSatisfy({ $0 < 0x80 }) else { return nil }
                guard haystack.count >= target.count else { return false }
                func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte }
                outer: for start in 0...(haystack.count - target.count) {
                    for offset in 0..<target.count where lower(haystack[start + offset]) != target[offset] { continue outer }
                    return true
                }
                return false
            }
        }
        return ascii ?? lowercased().contains(needle)
    }

    /// `value` in decimal, padded with zeros to `width` digits.
    public static func zeroPadded(_ value: Int, width: Int) -> String {
        let digits = String(value.magnitude)
        let padding = String(repeating: "0", count: Swift.max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }
}
