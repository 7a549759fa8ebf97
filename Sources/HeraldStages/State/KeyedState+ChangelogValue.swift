import Foundation
import HeraldModel

extension KeyedState {
    /// The Codable encoding (through `WireCodec`).
    public func changelogValue(_ codec: WireCodec) throws(ModelError) -> Data {
        try codec.encode(self)
    }
}

extension KeyedState where Self: WireEncodable {
    /// The fast writer's encoding, called without a dynamic cast.
    public func changelogValue(_ codec: WireCodec) throws(ModelError) -> Data {
        try codec.encode(self)
    }
}
