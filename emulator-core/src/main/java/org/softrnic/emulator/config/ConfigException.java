package org.softrnic.emulator.config;

/** A configuration that cannot be used, with the field and the reason. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
