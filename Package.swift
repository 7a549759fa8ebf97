// swift-tools-version: 6.0
// Herald: CloudKit-style subscription notifications as Kafka workers.
// Module layout and allowed imports: see docs/ARCHITECTURE.md §4.
import PackageDescription

let package = Package(
    name: "Herald",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "herald", targets: ["herald"]),
        // The parsers of outside input, for the libFuzzer targets in Fuzz/ (`make fuzz`).
        .library(name: "HeraldModel", targets: ["HeraldModel"]),
        .library(name: "HeraldPredicate", targets: ["HeraldPredicate"]),
        .library(name: "HeraldMatcher", targets: ["HeraldMatcher"]),
        .library(name: "HeraldScheduler", targets: ["HeraldScheduler"]),
        .library(name: "HeraldPayload", targets: ["HeraldPayload"]),
        .library(name: "HeraldReader", targets: ["HeraldReader"]),
        // Built for `herald bench pipeline`'s allocation counts only, never linked into `herald`:
        // run the benchmark with LD_PRELOAD=.build/release/libHeraldAllocationCounter.so (make bench).
        .library(name: "HeraldAllocationCounter", type: .dynamic, targets: ["HeraldAllocationCounter"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // HeraldPushClient: APNs and FCM over HTTP/2, and the TLS stand-in's certificates.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // System library over Debian's librdkafka-dev (pkg-config `rdkafka`). Never vendored.
        .systemLibrary(
            name: "CRdKafka",
            pkgConfig: "rdkafka",
            providers: [.apt(["librdkafka-dev"])]
        ),
        .target(
            name: "HeraldKafka",
            dependencies: [
                "CRdKafka",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "HeraldModel"),
        .target(name: "HeraldPredicate", dependencies: ["HeraldModel"]),
        // System library over Debian's libicu-dev (pkg-config `icu-uc icu-i18n`): CLDR plural
        // rules for HeraldPayload. Never vendored.
        .systemLibrary(
            name: "CICU",
            pkgConfig: "icu-i18n",
            providers: [.apt(["libicu-dev"])]
        ),
        .target(name: "HeraldPayload", dependencies: ["HeraldModel", "CICU"]),
        .target(name: "HeraldMatcher", dependencies: ["HeraldPredicate", "HeraldModel"]),
        .target(name: "HeraldDelivery", dependencies: ["HeraldPayload", "HeraldModel"]),
        // Push rules without I/O: requests, provider answers → actions, device registry rules.
        .target(name: "HeraldPush", dependencies: ["HeraldModel"]),
        // The providers' I/O: APNsClient and FCMClient (PushTransport over HTTP/2), their
        // credentials, and PushStandIn, the local APNs + FCM stand-in (make demo, bench push).
        .target(
            name: "HeraldPushClient",
            dependencies: [
                "HeraldPush",
                "HeraldModel",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "HeraldScheduler",
            dependencies: ["HeraldModel", .product(name: "HeapModule", package: "swift-collections")]
        ),
        .target(
            name: "HeraldAssets",
            dependencies: ["HeraldModel", .product(name: "HeapModule", package: "swift-collections")]
        ),
        .target(
            name: "HeraldAPI",
            dependencies: [
                "HeraldModel",
                "HeraldMatcher",
                "HeraldPayload",
                "HeraldReader",
                "HeraldScheduler",
                "HeraldPush",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            // The OpenAPI document (docs/openapi.yaml links to it), served at GET /openapi.yaml.
            resources: [.copy("Resources/openapi.yaml")]
        ),
        .target(
            name: "HeraldReader",
            dependencies: [
                "HeraldModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "HeraldStages",
            dependencies: [
                "HeraldKafka",
                "HeraldModel",
                "HeraldMatcher",
                "HeraldPayload",
                "HeraldDelivery",
                "HeraldScheduler",
                "HeraldAssets",
                "HeraldReader",
                "HeraldPush",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The composition root: configuration → every stage, the reader and the HTTP API, wired.
        .target(
            name: "HeraldApp",
            dependencies: [
                "HeraldStages",
                "HeraldKafka",
                "HeraldModel",
                "HeraldMatcher",
                "HeraldPayload",
                "HeraldDelivery",
                "HeraldReader",
                "HeraldAPI",
                "HeraldPush",
                "HeraldPushClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // `herald bench …`: each benchmark with its same-run baseline (`make bench`).
        .target(
            name: "HeraldBenchmarks",
            dependencies: [
                "CRdKafka",
                "HeraldKafka",
                "HeraldModel",
                "HeraldMatcher",
                "HeraldPayload",
                "HeraldReader",
                "HeraldAPI",
                "HeraldStages",
                "HeraldApp",
                "HeraldPush",
                "HeraldPushClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The allocation counter the pipeline benchmark preloads (see HeraldBenchmarks'
        // AllocationCounter): a product of its own so `herald` never links it.
        .target(name: "HeraldAllocationCounter"),
        .executableTarget(
            name: "herald",
            dependencies: [
                "HeraldApp",
                "HeraldBenchmarks",
                "HeraldStages",
                "HeraldKafka",
                "HeraldModel",
                "HeraldPredicate",
                "HeraldMatcher",
                "HeraldPayload",
                "HeraldDelivery",
                "HeraldScheduler",
                "HeraldAssets",
                "HeraldReader",
                "HeraldAPI",
                "HeraldPush",
                "HeraldPushClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What the test targets share: the seeded generator, bounded waits, topic readers,
        // the embedded-cluster fixtures, runtimes built by HeraldApp with an HTTP client of
        // their server, log capture and the virtual clock.
        .target(
            name: "HeraldTestSupport",
            dependencies: [
                "HeraldAPI",
                "HeraldApp",
                "HeraldKafka",
                "HeraldModel",
                "HeraldStages",
                "HeraldReader",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Tests/HeraldTestSupport"
        ),
        .testTarget(
            name: "HeraldKafkaTests",
            dependencies: ["HeraldKafka", "HeraldTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "HeraldModelTests", dependencies: ["HeraldModel", "HeraldTestSupport"]),
        .testTarget(name: "HeraldPredicateTests", dependencies: ["HeraldPredicate", "HeraldModel", "HeraldTestSupport"]),
        .testTarget(name: "HeraldPayloadTests", dependencies: ["HeraldPayload", "HeraldModel", "HeraldTestSupport"]),
        .testTarget(
            name: "HeraldMatcherTests", dependencies: ["HeraldMatcher", "HeraldPredicate", "HeraldModel", "HeraldTestSupport"]
        ),
        .testTarget(name: "HeraldPushTests", dependencies: ["HeraldPush", "HeraldModel", "HeraldTestSupport"]),
        .testTarget(
            name: "HeraldPushClientTests",
            dependencies: [
                "HeraldPushClient", "HeraldPush", "HeraldModel", "HeraldTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "HeraldDeliveryTests", dependencies: ["HeraldDelivery", "HeraldPayload", "HeraldModel"]),
        .testTarget(name: "HeraldSchedulerTests", dependencies: ["HeraldScheduler", "HeraldModel", "HeraldTestSupport"]),
        .testTarget(name: "HeraldAssetsTests", dependencies: ["HeraldAssets", "HeraldModel"]),
        .testTarget(
            name: "HeraldBenchmarksTests",
            dependencies: ["HeraldBenchmarks", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "HeraldReaderTests",
            dependencies: [
                "HeraldReader", "HeraldModel", "HeraldTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "HeraldAPITests",
            dependencies: [
                "HeraldAPI", "HeraldReader", "HeraldModel", "HeraldMatcher", "HeraldScheduler", "HeraldTestSupport", "HeraldPush",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "HeraldStagesTests",
            dependencies: [
                "HeraldApp", "HeraldStages", "HeraldKafka", "HeraldModel", "HeraldReader", "HeraldDelivery", "HeraldAPI", "HeraldPush",
                "HeraldPushClient", "HeraldScheduler", "HeraldAssets", "HeraldTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
    ]
)
