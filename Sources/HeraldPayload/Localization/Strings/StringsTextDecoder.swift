import Foundation

/// Turns the bytes of a `.strings` file into Unicode scalars, detecting the encoding.
///
/// Detection, in order:
/// 1. `EF BB BF` — UTF-8 with a BOM (the BOM is dropped);
/// 2. `FF FE` — UTF-16 little-endian; `FE FF` — UTF-16 big-endian (BOM dropped);
/// 3. no BOM but NUL bytes among the first 64 bytes — BOM-less UTF-16, little-endian when
///    the NULs sit at odd offsets, big-endian when at even offsets. This is cheap and
///    reliable because `.strings` files start with ASCII (comments, quotes, letters), and
///    real UTF-8 text never contains NUL;
/// 4. otherwise UTF-8.
///
/// Malformed input (invalid UTF-8, an odd number of UTF-16 bytes, unpaired surrogates)
/// throws ``PayloadError`` with code ``PayloadError/Code/encoding`` and the line where
/// decoding failed.
struct StringsTextDecoder {
    /// The encoding that was detected.
    enum Encoding: Equatable, Sendable {
        case utf8
        case utf16LittleEndian
        case utf16BigEndian
    }

    var file: String?

    /// Detects the encoding and how many BOM bytes to skip.
    static func detect(_ bytes: [UInt8]) -> (encoding: Encoding, bomLength: Int) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return (.utf8, 3) }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LittleEndian, 2) }
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BigEndian, 2) }
        var evenZeros = 0
        var oddZeros = 0
        for (offset, byte) in bytes.prefix(64).enumerated() where byte == 0 {
            if offset % 2 == 0 { evenZeros += 1 } else { oddZeros += 1 }
        }
        if oddZeros > evenZeros { return (.utf16LittleEndian, 0) }
        if evenZeros > oddZeros { return (.utf16BigEndian, 0) }
        return (.utf8, 0)
    }

    /// Decodes `data` into scalars.
    func decode(_ data: Data) throws -> [Unicode.Scalar] {
        let bytes = [UInt8](data)
        let (encoding, bomLength) = Self.detect(bytes)
        let body = bytes[bomLength...]
        switch encoding {
        case .utf8:
            return try decode(body, as: UTF8.self, name: "UTF-8")
        case .utf16LittleEndian, .utf16BigEndian:
            guard body.count % 2 == 0 else {
                throw PayloadError(.encoding, "UTF-16 text has an odd number of bytes (\(bytes.count))",
                                   at: .init(file: file))
            }
            var units: [UInt16] = []
            units.reserveCapacity(body.count / 2)
            var index = body.startIndex
            while index < body.endIndex {
                let first = UInt16(body[index])
                let second = UInt16(body[index + 1])
                units.append(encoding == .utf16LittleEndian ? first | second << 8 : first << 8 | second)
                index += 2
            }
            return try decode(units, as: UTF16.self, name: "UTF-16")
        }
    }

    private func decode<Codec: UnicodeCodec, Units: Collection>(
        _ units: Units, as codec: Codec.Type, name: String
    ) throws -> [Unicode.Scalar] where Units.Element == Codec.CodeUnit {
        var decoder = Codec()
        var iterator = units.makeIterator()
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(units.count)
        var line = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                // Count lines as the scanner does: \n, \r\n and a lone \r each end one.
                if scalar == "\r" || (scalar == "\n" && scalars.last != "\r") { line += 1 }
                scalars.append(scalar)
            case .emptyInput:
                return scalars
            case .error:
                throw PayloadError(.encoding, "the text is not valid \(name)", at: .init(file: file, line: line))
            }
        }
    }
}
