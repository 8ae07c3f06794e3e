package com.example.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.softrnic.emulator.junit.SoftRnicTest;
import org.softrnic.verbs.QpCaps;
import org.softrnic.verbs.QpState;
import org.softrnic.verbs.cm.CmConnection;
import org.softrnic.verbs.cm.CmListener;
import org.softrnic.verbs.cm.ConnParam;

/** An rdma_cm server that blocks in accept on a thread of its own, and its client on the test's thread. */
@SoftRnicTest(fabric = SoftRnicTest.Fabric.THREADED) // two threads use the devices: the threaded fabric
class CmServerTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void aClientConnectsToAServerOnItsOwnThread() throws Exception {
        InetSocketAddress at = new InetSocketAddress("10.0.0.2", 7174); // device 1's address, rping's port
        try (CmListener listener = CmListener.listen(at)) { // listening before the client connects
            CompletableFuture<CmConnection> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    return listener.accept(QpCaps.of(4, 4), ConnParam.DEFAULT, WAIT);
                } catch (InterruptedException e) {
                    throw new CompletionException(e);
                }
            });
            try (CmConnection client = CmConnection.connect(at, QpCaps.of(4, 4), ConnParam.DEFAULT, WAIT);
                 CmConnection server = accepted.get(20, TimeUnit.SECONDS)) {
                assertEquals(QpState.RTS, client.qp().query().qpState);
                assertEquals(QpState.RTS, server.qp().query().qpState);
            }
        }
    }
}
