import Foundation
import HeraldStages
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Listen address")
struct ListenAddressTests {
    @Test("a port another socket listens on fails, naming the address; a free one and port 0 pass")
    func takenPortIsNamed() throws {
        let handle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(handle >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(handle, pointer, length) == 0 && listen(handle, 1) == 0 && getsockname(handle, pointer, &length) == 0
            }
        }
        try #require(listening)
        let port = Int(UInt16(bigEndian: address.sin_port))
        #expect {
            try ListenAddress(host: "127.0.0.1", port: port).checkAvailable()
        } throws: { error in
            (error as? PipelineError)?.reason == "cannot listen on 127.0.0.1:\(port): address already in use"
        }
        close(handle)
        try ListenAddress(host: "127.0.0.1", port: port).checkAvailable()
        try ListenAddress(host: "127.0.0.1", port: 0).checkAvailable()
    }
}
