// swift-tools-version: 6.0
// libFuzzer targets for every parser of outside input (`make fuzz`, README "Fuzzing").
// A separate package so the root package's `swift build` / `swift test` never see them:
// each target defines `LLVMFuzzerTestOneInput` and hands it to libFuzzer's driver, so it
// only links with `-sanitize=fuzzer` (see the Makefile's `fuzz-build`).
import PackageDescription

let fuzzers: [(name: String, products: [String])] = [
    ("FuzzPredicate", ["HeraldPredicate", "HeraldModel"]),
    ("FuzzStrings", ["HeraldPayload"]),
    ("FuzzStringsdict", ["HeraldPayload"]),
    ("FuzzStringCatalog", ["HeraldPayload"]),
    ("FuzzRecordChange", ["HeraldModel"]),
    ("FuzzSubscription", ["HeraldModel", "HeraldMatcher"]),
    ("FuzzSchedule", ["HeraldModel", "HeraldScheduler"]),
    ("FuzzChangeToken", ["HeraldReader"]),
    ("FuzzWireCodec", ["HeraldModel"]),
    ("FuzzCompactMatch", ["HeraldModel"]),
]

let package = Package(
    name: "HeraldFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Herald", path: "..")],
    targets: [
        .target(name: "CFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CFuzzer",
                .product(name: "HeraldModel", package: "Herald"),
                .product(name: "HeraldMatcher", package: "Herald"),
                .product(name: "HeraldPayload", package: "Herald"),
            ]
        ),
    ] + fuzzers.map { fuzzer in
        .executableTarget(
            name: fuzzer.name,
            dependencies: ["FuzzSupport"] + fuzzer.products.map { .product(name: $0, package: "Herald") }
        )
    }
)
