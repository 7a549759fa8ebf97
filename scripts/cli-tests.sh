#!/usr/bin/env bash
# The herald command-line tools (predicate, match, strings, payload, schedule) against expected exit
# codes, stdout and stderr. Fixtures and golden files live in Tests/CLIGolden/.
#
#   scripts/cli-tests.sh                 uses .build/debug/herald
#   HERALD=path/to/herald scripts/cli-tests.sh
#   CLI_UPDATE_GOLDEN=1 scripts/cli-tests.sh   rewrites the golden files from the binary
#
# Prints one line per failure and `cli: N passed, M failed`; exits 1 when any case failed.
set -u

cd "$(dirname "$0")/.." || exit 2
HERALD=${HERALD:-.build/debug/herald}
F=Tests/CLIGolden
S=samples

if [ ! -x "$HERALD" ]; then
  echo "cli-tests: no herald binary at $HERALD (build it, or set HERALD)" >&2
  exit 2
fi
command -v python3 >/dev/null || { echo "cli-tests: python3 is required" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# check.py KIND SPEC FILE: one stdout or stderr check; prints why on failure.
#   stdout: any | empty | text:EXACT | has:SUBSTRING | golden:FILE.json (one JSON document) |
#           lines:FILE.jsonl (one JSON value per line, in order) | py:EXPRESSION
#   stderr: the same kinds, plus re:REGEX (searched)
#   py: EXPRESSION sees `j` (stdout parsed as JSON) and `out` (the text).
cat >"$work/check.py" <<'PY'
import json, os, re, sys

kind, spec, path = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(path, encoding="utf-8", errors="replace").read()
mode, _, arg = spec.partition(":")

def fail(message):
    print(message)
    sys.exit(1)

def canonical(value):
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)

if mode == "any":
    pass
elif mode == "empty":
    if text != "":
        fail(f"{kind}: expected nothing, got {text!r}")
elif mode == "text":
    if text.rstrip("\n") != arg:
        fail(f"{kind}: expected {arg!r}, got {text.rstrip(chr(10))!r}")
elif mode == "has":
    if arg not in text:
        fail(f"{kind}: expected to contain {arg!r}, got {text!r}")
elif mode == "re":
    if not re.search(arg, text, re.MULTILINE):
        fail(f"{kind}: expected to match /{arg}/, got {text!r}")
elif mode in ("golden", "lines"):
    try:
        if mode == "golden":
            actual = json.loads(text)
        else:
            actual = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as error:
        fail(f"{kind}: not JSON ({error}): {text!r}")
    if os.environ.get("CLI_UPDATE_GOLDEN") == "1":
        with open(arg, "w", encoding="utf-8") as out:
            if mode == "golden":
                out.write(canonical(actual) + "\n")
            else:
                out.writelines(json.dumps(item, sort_keys=True, ensure_ascii=False) + "\n" for item in actual)
        sys.exit(0)
    with open(arg, encoding="utf-8") as golden:
        if mode == "golden":
            expected = json.load(golden)
        else:
            expected = [json.loads(line) for line in golden if line.strip()]
    if actual != expected:
        import difflib
        diff = difflib.unified_diff(
            canonical(expected).splitlines(), canonical(actual).splitlines(), arg, "actual", lineterm="", n=2)
        fail(f"{kind}: differs from {arg}\n" + "\n".join(diff))
elif mode == "py":
    try:
        j = json.loads(text)
    except json.JSONDecodeError:
        j = None
    try:
        holds = eval(arg, {"j": j, "out": text})
    except Exception as error:
        fail(f"{kind}: {arg} raised {type(error).__name__}: {error} for {text!r}")
    if not holds:
        fail(f"{kind}: {arg} is false for {text!r}")
else:
    fail(f"unknown check {spec!r}")
PY

passed=0
failed=0
number=0

# t NAME EXIT STDOUT-CHECK STDERR-CHECK ARGS...: runs herald ARGS, then checks the exit code,
# stdout and stderr.
t() {
  local name=$1 code=$2 out=$3 err=$4
  shift 4
  number=$((number + 1))
  "$HERALD" "$@" >"$work/out" 2>"$work/err" </dev/null
  local actual=$? why="" ok=1
  if [ "$actual" -ne "$code" ]; then
    ok=0 why="exit $actual, expected $code"
  elif ! why=$(python3 "$work/check.py" stdout "$out" "$work/out" 2>&1); then
    ok=0
  elif ! why=$(python3 "$work/check.py" stderr "$err" "$work/err" 2>&1); then
    ok=0
  fi
  if [ "$ok" -eq 1 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $number $name: $why"
    echo "  herald $*"
    sed 's/^/  stderr: /' "$work/err" | head -5
  fi
}

urgent_predicate="priority >= %@ AND tags CONTAINS 'urgent'"

# --- predicate check -------------------------------------------------------------------
t "check normalizes and substitutes" 0 "text:priority >= 3 AND tags CONTAINS 'urgent'" empty \
  predicate check --predicate "$urgent_predicate" --arguments '[3]'
t "check keeps keywords case-insensitive" 0 "text:title BEGINSWITH 'Groc' AND NOT (done == 1)" empty \
  predicate check --predicate "title beginswith 'Groc' and not done == 1"
t "check: typed argument" 0 "text:modified > TIMESTAMP(1795300000000)" empty \
  predicate check --predicate "modified > %@" --arguments '[{"value": 1795300000000, "type": "TIMESTAMP"}]'
t "check: syntax error names line and column" 2 empty "re:^error: invalid predicate: 2:2: " \
  predicate check --predicate "priority >=
 AND x"
t "check: unterminated string names its column" 2 empty "re:1:[0-9]+: " \
  predicate check --predicate "title == 'abc"
t "check: OR is refused under --cloudkit" 2 empty "re:1:8: .*OR" \
  predicate check --predicate "a == 1 OR b == 2" --cloudkit
t "check: OR is accepted without --cloudkit" 0 "text:a == 1 OR b == 2" empty \
  predicate check --predicate "a == 1 OR b == 2"
t "check: missing argument" 2 empty "has:error: invalid predicate" \
  predicate check --predicate "a == %@"
t "check: --arguments not JSON" 2 empty "has:--arguments" \
  predicate check --predicate "a == %@" --arguments '[1'

# --- predicate eval --------------------------------------------------------------------
t "eval: true" 0 "text:true" empty \
  predicate eval --predicate "$urgent_predicate" --arguments '[3]' --record $F/record-note.json
t "eval: false with a typed argument" 0 "text:false" empty \
  predicate eval --predicate "priority >= %@" --arguments '[{"value": 6, "type": "INT64"}]' --record $F/record-note.json
t "eval: a missing field is false, not an error" 0 "text:false" empty \
  predicate eval --predicate "missing == 1" --record $F/record-note.json
t "eval: list membership" 0 "text:true" empty \
  predicate eval --predicate "ANY tags IN {'home', 'work'}" --record $F/record-note.json
t "eval: record not JSON names the file" 2 empty "has:change-malformed.json" \
  predicate eval --predicate "x == 1" --record $F/change-malformed.json
t "eval: unreadable record" 2 empty "has:cannot read $F/nope.json" \
  predicate eval --predicate "x == 1" --record $F/nope.json

# --- match ------------------------------------------------------------------------------
t "match: one query subscription" 0 \
  'text:{"notificationType":"query","reason":"recordCreated","recipient":"_alice","subscriptionID":"urgent-notes"}' empty \
  match --subscriptions $S/subscriptions.jsonl --change $F/change-urgent-create.json
t "match: three subscriptions, one line each, by ID" 0 "lines:$F/match-many.expected.jsonl" empty \
  match --subscriptions $S/subscriptions.jsonl --change $F/change-many.json
t "match: update leaving the results" 0 \
  'text:{"notificationType":"query","reason":"recordLeft","recipient":"_alice","subscriptionID":"groceries-list"}' empty \
  match --subscriptions $S/subscriptions.jsonl --change $F/change-left.json
t "match: enter-only NOT_LIST_CONTAINS_ANY fires recordEntered on the update that reopens" 0 \
  "lines:$F/match-task-reopened.expected.jsonl" empty \
  match --subscriptions $F/subscriptions-enter-leave.jsonl --change $F/change-task-reopened.json
t "match: leave-only NOT_LIST_CONTAINS_ALL fires recordLeft once every value is held" 0 \
  "lines:$F/match-task-signed-off.expected.jsonl" empty \
  match --subscriptions $F/subscriptions-enter-leave.jsonl --change $F/change-task-signed-off.json
t "match: enter/leave-only subscriptions do not fire on a create" 0 \
  'text:{"notificationType":"query","reason":"recordCreated","recipient":"_alice","subscriptionID":"task-open"}' empty \
  match --subscriptions $F/subscriptions-enter-leave.jsonl --change $F/change-task-created.json
t "match: nor on an update without previousFields" 0 \
  'text:{"notificationType":"query","reason":"recordUpdated","recipient":"_alice","subscriptionID":"task-open"}' empty \
  match --subscriptions $F/subscriptions-enter-leave.jsonl --change $F/change-task-updated-no-previous.json
t "match: zone subscription" 0 \
  'text:{"notificationType":"recordZone","recipient":"_bob","subscriptionID":"bob-shopping-zone"}' empty \
  match --subscriptions $S/subscriptions.jsonl --change $F/change-zone.json
t "match: shared database participant" 0 \
  'text:{"notificationType":"database","recipient":"_carol","subscriptionID":"carol-shared"}' empty \
  match --subscriptions $S/subscriptions.jsonl --change $F/change-shared.json
t "match: IDs are per user: two participants' equal IDs both fire, by ID then recipient" 0 \
  "lines:$F/match-same-id.expected.jsonl" empty \
  match --subscriptions $F/subscriptions-same-id.jsonl --change $F/change-shared.json
t "match: nothing fires" 0 empty empty \
  match --subscriptions $S/subscriptions.jsonl --change $F/change-with-asset.json
t "match: bad subscription line named" 2 empty "has:subscriptions-bad.jsonl:2:" \
  match --subscriptions $F/subscriptions-bad.jsonl --change $F/change-urgent-create.json
t "match: bad change names the file" 2 empty "has:change-malformed.json" \
  match --subscriptions $S/subscriptions.jsonl --change $F/change-malformed.json

# --- strings parse ----------------------------------------------------------------------
t "strings: quotes, escapes, unquoted, key only" 0 "golden:$F/strings-good.expected.json" empty \
  strings parse $F/strings-good.strings
t "strings: UTF-16 with BOM" 0 'py:j == {"CAFÉ": "Café ☕️", "EMOJI": "👩🏽‍💻"}' empty \
  strings parse $F/strings-utf16.strings
t "strings: missing ';' names the line" 2 empty "re:strings-bad.strings:3:[0-9]+: .*';'" \
  strings parse $F/strings-bad.strings
t "strings: unreadable file" 2 empty "has:cannot read" \
  strings parse $F/nope.strings

# --- payload build ----------------------------------------------------------------------
P="payload build"
t "payload: alert dictionary, badge, sound, desired keys" 0 "golden:$F/payload-basic.expected.json" empty \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json
t "payload: rendered in fr for fr-CA (strings, xcstrings plural)" 0 "golden:$F/payload-localized-fr.expected.json" empty \
  $P --subscription $F/subscription-localized.json --change $F/change-urgent-create.json \
  --localizations $F/localizations --locale fr-CA --badge 3
t "payload: rendered in de (stringsdict plural), sequence and badge" 0 "golden:$F/payload-localized-de.expected.json" empty \
  $P --subscription $F/subscription-localized.json --change $F/change-urgent-create.json \
  --localizations $F/localizations --locale de --badge 4 --sequence 7
t "payload: unknown locale falls back to the development language, and rendered.locale says so" 0 \
  'py:j["rendered"] == {"locale": "en", "title": "Note", "subtitle": "5 points", "body": "“Call the plumber” changed (priority 5)"}' empty \
  $P --subscription $F/subscription-localized.json --change $F/change-urgent-create.json \
  --localizations $F/localizations --locale ja
t "payload: --development-language is the last fallback" 0 \
  'py:j["rendered"]["locale"] == "fr" and j["rendered"]["body"] == "« Call the plumber » a changé (priorité 5)"' empty \
  $P --subscription $F/subscription-localized.json --change $F/change-urgent-create.json \
  --localizations $F/localizations --locale ja --development-language fr
t "payload: an iw.lproj folder serves he-IL; he.lproj's entries win; the loader warns" 0 \
  'py:j["rendered"]["locale"] == "iw" and j["rendered"]["title"] == "הערה" and j["rendered"]["body"] == "„Call the plumber” השתנה (עדיפות 5)"' \
  "has:warning: --localizations: 'he' and 'iw' are one localization (he): 'he' wins" \
  $P --subscription $F/subscription-localized.json --change $F/change-urgent-create.json \
  --localizations $F/localizations-alias --locale he-IL
t "payload: zone subscription, silent push" 0 "golden:$F/payload-zone.expected.json" empty \
  $P --subscription $F/subscription-zone.json --change $F/change-zone.json
t "payload: shared database subscription" 0 "golden:$F/payload-shared-database.expected.json" empty \
  $P --subscription $F/subscription-shared-database.json --change $F/change-shared.json
t "payload: recordLeft is sent as fo 3" 0 \
  'py:j["queryNotificationReason"] == "recordLeft" and j["apns"]["payload"]["ck"]["qry"]["fo"] == 3 and j["apns"]["payload"]["aps"]["alert"] == "Your groceries list changed"' empty \
  $P --subscription $F/subscription-groceries.json --change $F/change-left.json
t "payload: pruned to --max-bytes, steps on stderr" 0 "golden:$F/payload-pruned.expected.json" \
  "re:^pruned: dropped desiredKeys$" \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json --max-bytes 250
t "payload: problems are warnings on stderr" 0 "golden:$F/payload-problems.expected.json" \
  "re:^warning: desiredKeys\[1\]: .*ASSETID.*\[payload.unsupportedField\]\nwarning: desiredKeys\[2\]: .*\[payload.missingField\]$" \
  $P --subscription $F/subscription-problems.json --change $F/change-with-asset.json
t "payload: --voip" 0 'py:j["apns"]["pushType"] == "voip" and j["apns"]["priority"] == 10' empty \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json --voip
t "payload: --created-at overrides the change's timestamp" 0 'py:j["createdAt"] == 1' empty \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json --created-at 1
t "payload: --recipient the owner" 0 'py:j["recipient"] == "_carol"' empty \
  $P --subscription $F/subscription-shared-database.json --change $F/change-shared.json --recipient _carol
t "payload: --recipient not among the matches" 2 empty "has:fires for _carol, not for _frank" \
  $P --subscription $F/subscription-shared-database.json --change $F/change-shared.json --recipient _frank
t "payload: does not fire, predicate false" 2 empty \
  "has:does not fire for change 'c-0002': predicate: \`priority >= 3 AND tags CONTAINS 'urgent'\` is false" \
  $P --subscription $F/subscription-urgent.json --change $F/change-low-priority.json
t "payload: does not fire, firesOn" 2 empty "has:firesOn: firesOn [create, update] does not include delete" \
  $P --subscription $F/subscription-urgent.json --change $F/change-delete.json
t "payload: enter-only does not fire on a create" 2 empty \
  "text:error: subscription 'task-reopened' does not fire for change 'c-0103': firesOn: firesOn [enter] does not include create" \
  $P --subscription $F/subscription-reopened.json --change $F/change-task-created.json
t "payload: enter-only does not fire on an update without previousFields" 2 empty \
  "has:firesOn: firesOn [enter] has enter/leave but not update, and the change carries no previousFields" \
  $P --subscription $F/subscription-reopened.json --change $F/change-task-updated-no-previous.json
t "payload: enter-only fires recordEntered, sent as fo 1" 0 \
  'py:j["queryNotificationReason"] == "recordEntered" and j["apns"]["payload"]["ck"]["qry"]["fo"] == 1' empty \
  $P --subscription $F/subscription-reopened.json --change $F/change-task-reopened.json
t "payload: a NOT_LIST_CONTAINS_ANY filter is explained as its NSPredicate text" 2 empty \
  "text:error: subscription 'task-open' does not fire for change 'c-0105': predicate: \`NOT (ANY tags IN {'done', 'archived'})\` is false for the record created" \
  $P --subscription $F/subscription-task-open.json --change $F/change-task-created-done.json
t "payload: an empty firesOn is refused with the exact reason" 2 empty \
  "text:error: $F/subscription-fires-on-nothing.json: firesOn: a query subscription fires on at least one of create, update, delete, enter, leave" \
  $P --subscription $F/subscription-fires-on-nothing.json --change $F/change-task-created.json
t "payload: does not fire, record type" 2 empty "has:record type:" \
  $P --subscription $F/subscription-urgent.json --change $F/change-zone.json
t "payload: does not fire, zone" 2 empty "has:zone: the subscription watches Shopping (owner _bob)" \
  $P --subscription $F/subscription-zone.json --change $F/change-urgent-create.json
t "payload: does not fire, visibility" 2 empty "has:visibility: the change's zone belongs to _bob" \
  $P --subscription $F/subscription-urgent.json --change $F/change-other-owner.json
t "payload: does not fire, database" 2 empty "has:database: the change is in the private database" \
  $P --subscription $F/subscription-shared-database.json --change $F/change-zone.json
t "payload: invalid subscription" 2 empty "has:invalid subscription: $F/subscription-invalid.json: " \
  $P --subscription $F/subscription-invalid.json --change $F/change-urgent-create.json
t "payload: change not JSON names the file" 2 empty "has:$F/change-malformed.json: not valid JSON" \
  $P --subscription $F/subscription-urgent.json --change $F/change-malformed.json
t "payload: a change as subscription names the missing key" 2 empty "has:subscriptionID" \
  $P --subscription $F/change-urgent-create.json --change $F/change-urgent-create.json
t "payload: unreadable subscription" 2 empty "has:cannot read $F/nope.json" \
  $P --subscription $F/nope.json --change $F/change-urgent-create.json
t "payload: --max-bytes 0" 2 empty "has:--max-bytes must be at least 1" \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json --max-bytes 0
t "payload: too small a limit" 2 empty "has:[payload.tooLarge]" \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json --max-bytes 20
t "payload: negative badge" 2 empty "has:--badge" \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json --badge=-1
t "payload: --sequence 0" 2 empty "has:--sequence must be 1 or more" \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json --sequence 0
t "payload: --localizations not a directory" 2 empty "has:--localizations: $F/nowhere is not a directory" \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json --localizations $F/nowhere
t "payload: bad localization file named" 2 empty "re:--localizations: .*Localizable.strings:3:" \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json --localizations $F/localizations-bad

# --- schedule next ----------------------------------------------------------------------
SN="schedule next"
SS=$S/schedules
t "schedule: daily 02:30 Paris across spring-forward (02:30 → 03:30)" 0 "golden:$F/schedule-daily-spring-forward.expected.json" empty \
  $SN --schedule $SS/alarm-paris-daily.json --after 2026-03-27T00:00:00Z --count 4
t "schedule: daily 02:30 Paris across fall-back (the first 02:30)" 0 "golden:$F/schedule-daily-fall-back.expected.json" empty \
  $SN --schedule $SS/alarm-paris-daily.json --after 2026-10-23T00:00:00Z --count 4
t "schedule: daily 02:30 Paris written on the gap day (03:30 that day, 02:30 after; issue 16)" 0 "golden:$F/schedule-daily-gap-day.expected.json" empty \
  $SN --schedule $SS/alarm-paris-gap-day.json --after 2026-03-28T00:00:00Z --count 4
t "schedule: the alarm follows the user to New York" 0 'py:j == ["2026-06-01T06:30:00Z", "2026-06-02T06:30:00Z"]' empty \
  $SN --schedule $SS/alarm-paris-daily.json --after 2026-06-01T00:00:00Z --count 2 --time-zone America/New_York
t "schedule: monthly from Jan 31" 0 "golden:$F/schedule-monthly-jan31.expected.json" empty \
  $SN --schedule $SS/rent-monthly.json --after 2026-01-01T00:00:00Z --count 6
t "schedule: yearly from Feb 29 (NSCalendarUnit 4)" 0 "golden:$F/schedule-yearly-feb29.expected.json" empty \
  $SN --schedule $SS/birthday-leap-day.json --after 2024-02-29T12:00:00Z --count 8
t "schedule: --after is strict, offsets accepted" 0 'py:j == ["2026-03-31T09:00:00Z"]' empty \
  $SN --schedule $SS/rent-monthly.json --after 2026-02-28T10:00:00+01:00 --count 1
t "schedule: a once-schedule gives at most one instant" 0 'py:j == ["2026-03-29T16:00:00Z"]' empty \
  $SN --schedule $SS/tea-timer.json --after 2026-01-01T00:00:00Z
t "schedule: a once-schedule in the past gives none" 0 "text:[]" empty \
  $SN --schedule $SS/tea-timer.json --after 2026-03-29T16:00:00Z
t "schedule: a region schedule gives none, with a note" 0 "text:[]" "re:^note: a region schedule" \
  $SN --schedule $SS/near-tower.json --after 2026-01-01T00:00:00Z
t "schedule: invalid schedule names the path" 2 empty "has:repeatInterval second is under a minute" \
  $SN --schedule $F/schedule-invalid.json --after 2026-01-01T00:00:00Z
t "schedule: a fire date and a region" 2 empty "has:region: a schedule fires on a date or on a region, not both" \
  $SN --schedule $F/schedule-date-and-region.json --after 2026-01-01T00:00:00Z
t "schedule: unreadable file" 2 empty "has:cannot read $F/nope.json" \
  $SN --schedule $F/nope.json --after 2026-01-01T00:00:00Z
t "schedule: bad --after" 2 empty "has:--after" \
  $SN --schedule $SS/rent-monthly.json --after 2026-01-01T00:00:00
t "schedule: bad --time-zone" 2 empty 'has:--time-zone: unknown time zone "Mars/Olympus"' \
  $SN --schedule $SS/rent-monthly.json --after 2026-01-01T00:00:00Z --time-zone Mars/Olympus
t "schedule: --count 0" 2 empty "has:--count must be within" \
  $SN --schedule $SS/rent-monthly.json --after 2026-01-01T00:00:00Z --count 0

# --- run: checked before Kafka is contacted (127.0.0.1:1 has no broker) ---------------------
KEY=$(printf 'ab%.0s' $(seq 1 32))
SECRET=$(printf 'x%.0s' $(seq 1 40))
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(120)' >"$work/port" &
listener=$!
for _ in $(seq 1 50); do [ -s "$work/port" ] && break; sleep 0.1; done
taken=$(cat "$work/port")
t "run: a taken HTTP port is named, before Kafka" 1 empty "text:error: cannot listen on 127.0.0.1:$taken: address already in use" \
  run --brokers 127.0.0.1:1 --stages match --http-host 127.0.0.1 --http-port "$taken"
kill "$listener" 2>/dev/null
t "run: --brokers without a token key, before Kafka" 2 empty "has:--token-key (or \$HERALD_TOKEN_KEY) is required with --brokers" \
  run --brokers 127.0.0.1:1 --stages reader --jwt-secret "$SECRET" --http-port 0
t "run: a short JWT secret, before Kafka" 2 empty "has:--jwt-secret" \
  run --brokers 127.0.0.1:1 --stages reader --token-key "$KEY" --jwt-secret short --http-port 0
t "run: the push stage without credentials, before Kafka" 2 empty "has:--stages push: the push stage needs provider credentials: --apns-key-file" \
  run --brokers 127.0.0.1:1 --stages push --token-key "$KEY" --jwt-secret "$SECRET" --http-port 0
t "run: incomplete APNs credentials name the missing flags" 2 empty "has:missing --apns-team-id, --apns-key-id" \
  run --brokers 127.0.0.1:1 --stages push --apns-key-file /nonexistent.p8 --http-port 0
t "run: an unreadable APNs key is named, before Kafka" 2 empty "has:/nonexistent.p8: cannot read" \
  run --brokers 127.0.0.1:1 --stages push --apns-key-file /nonexistent.p8 --apns-team-id T --apns-key-id K --http-port 0
export HERALD_FCM_SERVICE_ACCOUNT=junk
t "run: an FCM service account that is not JSON is named, before Kafka" 2 empty "has:HERALD_FCM_SERVICE_ACCOUNT: not a service-account JSON object" \
  run --brokers 127.0.0.1:1 --stages push --http-port 0
unset HERALD_FCM_SERVICE_ACCOUNT
t "run: a provider URL that is not http(s)" 64 empty "has:--fcm-url must be an http(s) URL" \
  run --stages push --fcm-url ftp://x
t "run: --shutdown-timeout under a second" 64 empty "has:--shutdown-timeout must be at least 1s" \
  run --shutdown-timeout 500ms

# --- run: SIGTERM with the brokers gone ends within --shutdown-timeout ---------------------
# `herald broker` and a worker on it; once the worker is ready the broker is killed, then the
# worker gets SIGTERM with --shutdown-timeout 3s: it must be gone within 6 s.
number=$((number + 1))
"$HERALD" broker --partitions 2 --bootstrap-file "$work/bootstrap" >/dev/null 2>"$work/broker.err" &
broker=$!
for _ in $(seq 1 100); do [ -s "$work/bootstrap" ] && break; sleep 0.1; done
"$HERALD" run --brokers "$(cat "$work/bootstrap")" --partitions 2 --stages match --http-host 127.0.0.1 --http-port 0 \
  --shutdown-timeout 3s >/dev/null 2>"$work/run.err" &
worker=$!
for _ in $(seq 1 300); do grep -qs "herald running" "$work/run.err" && break; sleep 0.1; done
kill -KILL "$broker"; wait "$broker" 2>/dev/null
sleep 1
started=$(date +%s%N)
kill -TERM "$worker"
for _ in $(seq 1 60); do kill -0 "$worker" 2>/dev/null || break; sleep 0.1; done
elapsed_ms=$(( ($(date +%s%N) - started) / 1000000 ))
if kill -0 "$worker" 2>/dev/null; then
  kill -KILL "$worker"; wait "$worker" 2>/dev/null
  failed=$((failed + 1)); echo "FAIL $number run: shutdown with the brokers gone: still alive after ${elapsed_ms} ms"
else
  wait "$worker"; code=$?
  if [ "$code" -eq 0 ] || { [ "$code" -eq 1 ] && grep -q "abandoned:" "$work/run.err"; }; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "FAIL $number run: shutdown with the brokers gone: exit $code without naming what it abandoned"
  fi
fi

# dead-letters: a separate process cannot use the embedded broker (the list and replay
# themselves are tested against it in Tests/HeraldStagesTests/DeadLetterArchiveTests).
t "dead-letters list: needs --brokers" 64 empty "has:dead-letters list\` needs a running cluster" \
  dead-letters list --stage match
t "dead-letters replay: needs --brokers" 64 empty "has:dead-letters replay\` needs a running cluster" \
  dead-letters replay --dry-run

# --- devices: checked before the API is contacted (127.0.0.1:1 has no server) -----------
D="devices put --server http://127.0.0.1:1 --user _u1 --container iCloud.com.example.notes"
HEX64=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
t "devices put: an APNs token that is not hex names --token" 2 empty \
  "text:error: --token: an APNs device token is hexadecimal digits only" \
  $D --token not-hex --platform apns --environment production --topic com.example.notes
t "devices put: a short APNs token names --token and the count" 2 empty \
  "text:error: --token: an APNs device token has an even number of 64 to 200 hex digits, not 6" \
  $D --token abcdef --platform apns --environment production --topic com.example.notes
t "devices put: an APNs device without its bundle ID names --topic" 2 empty \
  "text:error: --topic: an APNs device needs its app's bundle ID (apns-topic)" \
  $D --token $HEX64 --platform apns --environment production
t "devices put: an unknown platform" 2 empty "text:error: --platform: expected apns or fcm, got 'webpush'" \
  $D --token $HEX64 --platform webpush
t "devices put: an FCM token with a space names --token" 2 empty \
  "text:error: --token: an FCM registration token has only letters, digits, '-', '_' and ':'" \
  $D --token "$HEX64 $HEX64" --platform fcm
t "devices list: an unreachable server is one line, exit 1" 1 empty "re:^error: .*127.0.0.1:1" \
  devices list --server http://127.0.0.1:1 --user _u1 --container iCloud.com.example.notes

# --- bad input (issue 11 §6) -------------------------------------------------------------
t "--version prints the version" 0 "re:^[0-9]+\.[0-9]+\.[0-9]+" empty --version
t "payload: --badge -1 is the value -1, refused" 2 empty "text:error: --badge must be 0 or more, not -1" \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json --badge -1
t "payload: --locale not a locale identifier" 2 empty "has:--locale: 'zz_!!' is not a locale identifier" \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json --locale 'zz_!!'
t "payload: --locale zh_Hant_TW is well-formed" 0 any empty \
  $P --subscription $F/subscription-urgent.json --change $F/change-urgent-create.json --locale zh_Hant_TW
t "match: one JSON document instead of JSON Lines says so, once" 2 empty \
  "re:\Aerror: Tests/CLIGolden/subscription-urgent.json is JSON Lines: one subscription per line; it holds one JSON document over 30 lines" \
  match --subscriptions $F/subscription-urgent.json --change $F/change-urgent-create.json
t "match: a missing file says why" 2 empty "text:error: cannot read $F/nope.jsonl: no such file or directory" \
  match --subscriptions $F/nope.jsonl --change $F/change-urgent-create.json
t "match: a directory says why" 2 empty "text:error: cannot read $F: is a directory" \
  match --subscriptions $F --change $F/change-urgent-create.json
python3 - "$work/overflow.json" "$work/big.jsonl" "$work/one.jsonl" <<'PY'
import json, sys
change = json.load(open("Tests/CLIGolden/change-urgent-create.json"))
text = json.dumps(change).replace('"value": 5,', '"value": 9223372036854775809,')
open(sys.argv[1], "w").write(text)
line = json.dumps(change)
big = dict(change, fields=dict(change["fields"], title={"value": "x" * 2_000_000, "type": "STRING"}))
open(sys.argv[2], "w").write(line + "\n" + json.dumps(big) + "\n")
open(sys.argv[3], "w").write(line + "\n")
PY
t "match: an INT64 overflow is shown as written" 2 empty "has:INT64 expects a 64-bit integer, got 9223372036854775809 (outside the 64-bit range)" \
  match --subscriptions $S/subscriptions.jsonl --change "$work/overflow.json"
t "changes produce: a 2 MB line is FILE:LINE, exit 2, before any broker" 2 empty \
  "re:big\.jsonl:2: the line is 2000[0-9]+ bytes; a message holds at most 1000000 bytes" \
  changes produce --brokers 127.0.0.1:1 "$work/big.jsonl"
t "changes produce: a pretty-printed change says JSON Lines" 2 empty "has:is JSON Lines: one record change per line" \
  changes produce --brokers 127.0.0.1:1 $F/change-urgent-create.json
started=$(date +%s)
t "changes produce: an unreachable broker is one line naming it, exit 1" 1 empty \
  "re:\Aerror: cannot reach Kafka at 127\.0\.0\.1:1 within 10 s: [^\n]*\n\Z" \
  changes produce --brokers 127.0.0.1:1 "$work/one.jsonl"
elapsed=$(( $(date +%s) - started ))
if [ "$elapsed" -gt 15 ]; then
  failed=$((failed + 1)); echo "FAIL changes produce to an unreachable broker took ${elapsed}s (bound: 10 s)"
else
  passed=$((passed + 1))
fi

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
