package org.softrnic.emulator.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads a {@link SoftRnicConfig} from JSON ({@code .json}) or YAML ({@code .yaml}, {@code .yml}). Keys are
 * snake_case; an unknown key is an error, so that a typo never passes silently.
 */
public final class ConfigFiles {
    private static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private ConfigFiles() {}

    public static SoftRnicConfig read(Path file) {
        String name = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        ObjectMapper mapper = name.endsWith(".yaml") || name.endsWith(".yml") ? YAML : JSON;
        try {
            return parse(mapper, Files.readString(file), file.toString());
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot be read (" + e.getMessage() + ")", e);
        }
    }

    /** A virtual-time fabric's topology from a JSON or YAML file ({@link TopologyConfig}). */
    public static org.softrnic.nic.sim.Topology readTopology(Path file) {
        String name = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        ObjectMapper mapper = name.endsWith(".yaml") || name.endsWith(".yml") ? YAML : JSON;
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot be read (" + e.getMessage() + ")", e);
        }
        try {
            return mapper.readValue(text, TopologyConfig.class).toTopology();
        } catch (JacksonException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ConfigException ce) throw new ConfigException(file + ": " + ce.getMessage(), ce);
            throw new ConfigException(file + ": " + e.getOriginalMessage(), e);
        } catch (ConfigException e) {
            throw new ConfigException(file + ": " + e.getMessage(), e);
        }
    }

    public static SoftRnicConfig parseJson(String text) {
        return parse(JSON, text, "JSON");
    }

    public static SoftRnicConfig parseYaml(String text) {
        return parse(YAML, text, "YAML");
    }

    private static SoftRnicConfig parse(ObjectMapper mapper, String text, String where) {
        try {
            return mapper.readValue(text, SoftRnicConfig.class);
        } catch (JacksonException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ConfigException ce) throw new ConfigException(where + ": " + ce.getMessage(), ce);
            throw new ConfigException(where + ": " + e.getOriginalMessage(), e);
        }
    }

    /** JSON of any value (configurations, counter snapshots), pretty-printed. */
    public static String toJson(Object value) {
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(value);
    }
}
