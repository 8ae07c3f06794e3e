package org.softrnic.cli.decode;

/**
 * One decoded header field.
 *
 * @param key     the JSON key (snake case, as in the README's schema)
 * @param value   the JSON value: a Number, Boolean or String, or null
 * @param text    how the text view shows the value
 * @param meaning one line saying what the field means, for {@code --explain}
 */
public record Field(String key, Object value, String text, String meaning) {}
