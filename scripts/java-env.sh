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
# Maven's own libraries (Guice, Guava) call sun.misc.Unsafe, which JDK 25 warns about at every start; the option
# lives here, not in .mvn/jvm.config, where a JDK before 24 would refuse it before Maven could say what it needs
case " ${MAVEN_OPTS:-} " in
    *--sun-misc-unsafe-memory-access=*) ;;
    *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;;
esac
