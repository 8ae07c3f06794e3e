package org.softrnic.emulator.fabric;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Selector;

/** Sleep in a selector, for a port whose input is a JDK channel. */
final class SelectorSleep extends PortSleep {
    final Selector selector;

    SelectorSleep() throws IOException {
        selector = Selector.open();
    }

    @Override
    void sleep(long millis) {
        try {
            selector.select(millis);
            selector.selectedKeys().clear();
        } catch (IOException e) {
            throw new UncheckedIOException("selector failed", e);
        }
    }

    @Override
    void wake() {
        selector.wakeup();
    }

    @Override
    public void close() {
        try {
            selector.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
