# Sourced by softrnic's scripts: selects a JDK >= 25 and exports JAVA_HOME and PATH.
# JAVA_HOME wins when it points at JDK 25 or newer; otherwise /usr/lib/jvm/temurin-25-jdk-amd64.
softrnic_java_major() {
    "$1/bin/java" -XshowSettings:properties -version 2>&1 \
        | awk -F'= ' '/java.specification.version/ {split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit}'
}

softrnic_select_jdk() {
    local found="" major
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
        major=$(softrnic_java_major "$JAVA_HOME")
        if [ -n "$major" ] && [ "$major" -ge 25 ]; then return 0; fi
        found="JAVA_HOME=$JAVA_HOME is Java ${major:-unknown}"
    fi
    local fallback=/usr/lib/jvm/temurin-25-jdk-amd64
    if [ -x "$fallback/bin/java" ]; then
        major=$(softrnic_java_major "$fallback")
        if [ -n "$major" ] && [ "$major" -ge 25 ]; then export JAVA_HOME=$fallback; return 0; fi
    fi
    if [ -z "$found" ]; then
        found="no JAVA_HOME, no $fallback, and java on PATH is $( (java -version 2>&1 || echo none) | head -n 1)"
    fi
    echo "softrnic: needs JDK 25 or newer; found $found" >&2
    return 1
}

softrnic_select_jdk || exit 1
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"

# softrnic's own JVMs (the softrnic command, scripts/bench, scripts/fuzz, scripts/soak) run the parallel
# collector. The engine allocates nothing per packet, so a throughput collector costs no pauses in steady state,
# and with G1 the message rate at 10 000 QPs falls to about 0.7 of the 100-QP rate where with this one it stays
# at about 0.9 (README, "Many QPs"). SOFTRNIC_JVM_OPTS, when set (even empty), replaces these options.
read -r -a SOFTRNIC_JVM <<< "${SOFTRNIC_JVM_OPTS--XX:+UseParallelGC}"
