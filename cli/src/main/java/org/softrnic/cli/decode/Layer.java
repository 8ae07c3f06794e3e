package org.softrnic.cli.decode;

import java.util.List;

/**
 * One protocol layer of a decoded frame. A layer with a {@code scalar} is a single value in JSON
 * ({@code "immdt": 1234}); otherwise it is an object of its fields.
 */
public record Layer(String name, List<Field> fields, boolean scalar) {
    public static Layer of(String name, Field... fields) {
        return new Layer(name, List.of(fields), false);
    }

    public static Layer scalar(String name, Field field) {
        return new Layer(name, List.of(field), true);
    }
}
