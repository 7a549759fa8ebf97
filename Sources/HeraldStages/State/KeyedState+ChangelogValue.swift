import Foundation
import HeraldModel

extension KeyedState {
    /// The Codable encoding (through `WireCodec`); `writer` is not used.
    public func changelogValue(_ codec: WireCodec, reusing writer: inout JSONWriter) throws(ModelError) -> Data {
        try codec.encode(self)
    }
}

extension KeyedState where Self: WireEncodable {
    /// The fast writer's encoding in `writer`'s buffer, called without a dynamic cast.
    public func changelogValue(_ codec: WireCodec, reusing writer: inout JSONWriter) throws(ModelError) -> Data {
        try codec.encode(self, reusing: &writer)
    }
}
