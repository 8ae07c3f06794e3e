package org.softrnic.emulator.soft;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import org.softrnic.verbs.AsyncEvent;
import org.softrnic.verbs.CompletionChannel;
import org.softrnic.verbs.CompletionQueue;
import org.softrnic.verbs.DeviceAttributes;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.Mtu;
import org.softrnic.verbs.PortAttr;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.RdmaDevice;
import org.softrnic.verbs.VerbsException;

/** An open soft RNIC. */
final class SoftContext extends SoftResource implements RdmaContext {
    private static int nextId = 1;
    private final int id;
    private final LinkedBlockingQueue<AsyncEvent> events = new LinkedBlockingQueue<>();

    SoftContext(SoftRnic device) {
        super(device);
        synchronized (SoftContext.class) {
            id = nextId++;
        }
    }

    @Override
    String describe() {
        return "context " + id + " of " + device.name();
    }

    @Override
    String destroyVerb() {
        return "ibv_close_device";
    }

    @Override
    void destroy() {
        device.forget(this);
    }

    /** Whether {@code api} (a QP, CQ or SRQ) was made through this context. */
    boolean owns(Object api) {
        return api instanceof SoftResource r && r.contextOf() == this;
    }

    void deliver(AsyncEvent e) {
        events.add(e);
    }

    @Override
    public RdmaDevice device() {
        return device;
    }

    @Override
    public DeviceAttributes queryDevice() {
        checkOpen("ibv_query_device");
        return device.nic.queryDevice();
    }

    @Override
    public PortAttr queryPort(int port) {
        checkOpen("ibv_query_port");
        checkPort("ibv_query_port", port);
        return new PortAttr("ACTIVE", Mtu.MTU_4096, device.nic.config().activeMtu(), device.nic.gids().size(), 1, "Ethernet");
    }

    @Override
    public Gid queryGid(int port, int index) {
        checkOpen("ibv_query_gid");
        checkPort("ibv_query_gid", port);
        if (index < 0 || index >= device.nic.gids().size()) {
            throw new VerbsException("ibv_query_gid", Errno.EINVAL, "GID index " + index + " is empty (the table holds "
                    + device.nic.gids().size() + ")");
        }
        return device.nic.gids().get(index);
    }

    private static void checkPort(String verb, int port) {
        if (port != 1) throw new VerbsException(verb, Errno.EINVAL, "port " + port + " does not exist (the device has port 1)");
    }

    @Override
    public ProtectionDomain allocPd() {
        synchronized (device) {
            checkOpen("ibv_alloc_pd");
            return new SoftPd(this, device.runner.call(device.nic::allocPd));
        }
    }

    @Override
    public CompletionChannel createCompChannel() {
        synchronized (device) {
            checkOpen("ibv_create_comp_channel");
            return new SoftChannel(this);
        }
    }

    @Override
    public CompletionQueue createCq(int cqe, CompletionChannel channel) {
        synchronized (device) {
            checkOpen("ibv_create_cq");
            SoftChannel ch = null;
            if (channel != null) {
                if (!(channel instanceof SoftChannel c) || c.contextOf() != this) {
                    throw new VerbsException("ibv_create_cq", Errno.EINVAL, "the completion channel belongs to another context");
                }
                c.checkOpen("ibv_create_cq");
                ch = c;
            }
            return SoftCq.create(this, cqe, ch);
        }
    }

    @Override
    public AsyncEvent getAsyncEvent(Duration timeout) throws InterruptedException {
        checkOpen("ibv_get_async_event");
        return device.runner.await(events, timeout);
    }

    @Override
    SoftContext contextOf() {
        return this;
    }
}
