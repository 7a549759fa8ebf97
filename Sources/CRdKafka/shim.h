// Herald's view of Debian's librdkafka (2.0.2): the client API, the mock cluster,
// and the few helpers that C macros or varargs keep out of Swift's reach.
#ifndef HERALD_CRDKAFKA_SHIM_H
#define HERALD_CRDKAFKA_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

/// The arguments after the topic that both produce helpers pass to rd_kafka_producev.
#define HERALD_PRODUCE_ARGS(partition, key, key_len, value, value_len, headers, opaque) \
    RD_KAFKA_V_PARTITION(partition), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key, key_len), \
    RD_KAFKA_V_VALUE((void *)value, value_len), RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_OPAQUE(opaque), RD_KAFKA_V_END

/// Enqueue one message (copied) with an optional key, headers and per-message opaque.
/// `partition` is RD_KAFKA_PARTITION_UA (-1) to let the partitioner choose.
/// On success librdkafka owns `headers`; on failure the caller still does.
static inline rd_kafka_resp_err_t herald_produce(rd_kafka_t *rk, const char *topic, int32_t partition,
                                                 const void *key, size_t key_len,
                                                 const void *value, size_t value_len,
                                                 rd_kafka_headers_t *headers, void *opaque) {
    return rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic),
                             HERALD_PRODUCE_ARGS(partition, key, key_len, value, value_len, headers, opaque));
}

/// `herald_produce` through a topic handle (`rd_kafka_topic_new`), which spares librdkafka
/// looking the topic up by name under its write lock for every message.
static inline rd_kafka_resp_err_t herald_produce_to(rd_kafka_t *rk, rd_kafka_topic_t *topic, int32_t partition,
                                                    const void *key, size_t key_len,
                                                    const void *value, size_t value_len,
                                                    rd_kafka_headers_t *headers, void *opaque) {
    return rd_kafka_producev(rk, RD_KAFKA_V_RKT(topic),
                             HERALD_PRODUCE_ARGS(partition, key, key_len, value, value_len, headers, opaque));
}

/// The special "let the partitioner choose" partition.
static inline int32_t herald_partition_unassigned(void) { return RD_KAFKA_PARTITION_UA; }

/// Offset constants that are macros in rdkafka.h.
static inline int64_t herald_offset_beginning(void) { return RD_KAFKA_OFFSET_BEGINNING; }
static inline int64_t herald_offset_end(void) { return RD_KAFKA_OFFSET_END; }
static inline int64_t herald_offset_stored(void) { return RD_KAFKA_OFFSET_STORED; }
static inline int64_t herald_offset_invalid(void) { return RD_KAFKA_OFFSET_INVALID; }

/// Event type constants (macros in rdkafka.h).
static inline int herald_event_none(void) { return RD_KAFKA_EVENT_NONE; }
static inline int herald_event_dr(void) { return RD_KAFKA_EVENT_DR; }
static inline int herald_event_log(void) { return RD_KAFKA_EVENT_LOG; }
static inline int herald_event_error(void) { return RD_KAFKA_EVENT_ERROR; }
static inline int herald_event_stats(void) { return RD_KAFKA_EVENT_STATS; }
static inline int herald_event_offset_commit(void) { return RD_KAFKA_EVENT_OFFSET_COMMIT; }
static inline int herald_event_create_topics_result(void) { return RD_KAFKA_EVENT_CREATETOPICS_RESULT; }

#endif
