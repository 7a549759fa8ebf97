# syntax=docker/dockerfile:1
# Herald container image: build with the official Swift image, run on Debian slim.
#   docker build -t herald:local .
# The Swift standard library and Foundation are linked statically (--static-swift-stdlib),
# so the runtime stage needs only the C libraries Herald links: librdkafka, ICU (plural rules)
# and SQLite.

ARG SWIFT_IMAGE=swift:6.1-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# ---- build ------------------------------------------------------------------------------
FROM ${SWIFT_IMAGE} AS builder
RUN apt-get update \
    && apt-get install -y --no-install-recommends librdkafka-dev libicu-dev libsqlite3-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies in their own layer so source edits do not refetch them.
COPY Package.swift ./
RUN swift package resolve
# Every target declared in Package.swift must exist, test targets included.
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product herald --static-swift-stdlib \
    && bin="$(swift build -c release --show-bin-path)" \
    && mkdir -p /staging \
    && cp "$bin/herald" /staging/herald \
    && find "$bin" -maxdepth 1 -name '*.resources' -exec cp -R {} /staging/ \;

# ---- runtime ----------------------------------------------------------------------------
FROM ${RUNTIME_IMAGE}
# librdkafka1/libicu72/libsqlite3-0: linked C libraries; ca-certificates: TLS to brokers;
# tzdata: users' time zones for scheduled notifications; curl: container health checks.
RUN apt-get update \
    && apt-get install -y --no-install-recommends librdkafka1 libicu72 libsqlite3-0 ca-certificates tzdata curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 herald \
    && useradd --system --uid 10001 --gid herald --home-dir /var/lib/herald --shell /usr/sbin/nologin herald \
    && mkdir -p /var/lib/herald \
    && chown herald:herald /var/lib/herald
COPY --from=builder /staging/ /usr/local/bin/
USER 10001:10001
WORKDIR /var/lib/herald
VOLUME ["/var/lib/herald"]
EXPOSE 8080
STOPSIGNAL SIGTERM
ENTRYPOINT ["herald"]
CMD ["run"]
