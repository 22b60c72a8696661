#!/bin/sh
# cyctop list end to end: models, encodings under forced models, presets,
# trees, metrics.
. "$SRCDIR/tests/lib.sh"

run "$CYCTOP" list models
expect_rc 0 "list models"
expect_out "core           2       3" "core2 inventory"
expect_out "amd64_fam10h   4       0" "fam10h inventory"
expect_out "(this host)" "host model marked"

run "$CYCTOP" list events --model core CYCLES_NONE
expect_rc 0 "list events core"
expect_out "RS_UOPS_DISPATCHED:c=1:i=1 -> type=4 config=0x18000a0" "cycles_none encoding"
run "$CYCTOP" list events --model amd64_fam10h_barcelona L3_requests
expect_out "config=0x40000f7e0" "L3 encoding with extended select"
run "$CYCTOP" list events --model core 'RS_UOPS_DISPATCHED:c=3:i=1'
expect_out "config=0x38000a0" "row by libpfm4 string"
run "$CYCTOP" list events --model core 'NO_SUCH_EVENT'
expect_rc 1 "unknown event"
expect_err "NO_SUCH_EVENT" "unknown event named"

run "$CYCTOP" list presets
expect_out "@big4" "big4 listed"
expect_out "MEM_LOAD_RETIRED.L2_LINE_MISS            sav 10000" "big4 SAV"
expect_out "@amd-dc" "amd presets listed"
run "$CYCTOP" list trees
expect_out "core2" "core2 tree listed"
expect_out "ia64" "ia64 tree listed"
run "$CYCTOP" list metrics --arch ia64
expect_out "cycles.stalls.residual" "ia64 metrics"
run "$CYCTOP" list bogus
expect_rc 2 "unknown kind"
expect_err "unknown kind 'bogus'" "kind named"
run "$CYCTOP" list events --model sparc
expect_rc 2 "unknown model"

done_ok
