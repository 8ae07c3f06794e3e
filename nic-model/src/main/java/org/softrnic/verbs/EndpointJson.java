package org.softrnic.verbs;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The flat JSON object of an {@link Endpoint}: string and integer values only, every key once. A small
 * strict reader, since the API's package depends on nothing; a peer's bytes never get further than a
 * clear IllegalArgumentException.
 */
final class EndpointJson {
    private static final Set<String> KEYS = Set.of("gid", "qpn", "psn", "mtu", "addr", "rkey", "length");
    private static final int MAX_LENGTH = 4096;

    private final Map<String, Object> fields = new HashMap<>();
    private final String s;
    private int at;

    private EndpointJson(String s) {
        this.s = s;
    }

    static EndpointJson parse(String json) {
        if (json == null) throw new IllegalArgumentException("no endpoint (null)");
        if (json.length() > MAX_LENGTH) throw new IllegalArgumentException("an endpoint's JSON is " + json.length() + " characters, too long");
        EndpointJson p = new EndpointJson(json);
        p.object();
        for (String k : KEYS) if (!p.fields.containsKey(k)) throw new IllegalArgumentException("the endpoint has no \"" + k + "\"");
        return p;
    }

    String text(String key) {
        if (!(fields.get(key) instanceof String v)) throw new IllegalArgumentException("\"" + key + "\" must be a string");
        return v;
    }

    long number(String key) {
        if (!(fields.get(key) instanceof Long v)) throw new IllegalArgumentException("\"" + key + "\" must be an integer");
        return v;
    }

    int int24(String key) {
        long v = number(key);
        if (v < 0 || v > 0xffffff) throw new IllegalArgumentException("\"" + key + "\" must be 24 bits, not " + v);
        return (int) v;
    }

    private void object() {
        expect('{');
        if (peek() != '}') {
            do {
                String key = string();
                if (!KEYS.contains(key)) throw new IllegalArgumentException("the endpoint has no field \"" + key + "\"");
                expect(':');
                Object v = peek() == '"' ? string() : integer();
                if (fields.put(key, v) != null) throw new IllegalArgumentException("\"" + key + "\" is given twice");
            } while (optional(','));
        }
        expect('}');
        space();
        if (at != s.length()) throw new IllegalArgumentException("text after the endpoint's JSON object, at " + at);
    }

    private String string() {
        expect('"');
        int start = at;
        while (at < s.length() && s.charAt(at) != '"') {
            char c = s.charAt(at++);
            if (c == '\\' || c < 0x20) throw new IllegalArgumentException("escapes and control characters are not allowed, at " + (at - 1));
        }
        if (at >= s.length()) throw new IllegalArgumentException("a string is not closed");
        return s.substring(start, at++);
    }

    private long integer() {
        int start = at;
        if (at < s.length() && s.charAt(at) == '-') at++;
        while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9') at++; // ASCII digits only, as JSON
        try {
            return Long.parseLong(s.substring(start, at));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("an integer was expected at " + start);
        }
    }

    private char peek() {
        space();
        if (at >= s.length()) throw new IllegalArgumentException("the endpoint's JSON ends too early");
        return s.charAt(at);
    }

    private void expect(char c) {
        if (peek() != c) throw new IllegalArgumentException("'" + c + "' was expected at " + at);
        at++;
    }

    private boolean optional(char c) {
        if (peek() != c) return false;
        at++;
        return true;
    }

    private void space() {
        while (at < s.length() && Character.isWhitespace(s.charAt(at))) at++;
    }
}
