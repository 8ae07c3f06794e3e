package org.softrnic.emulator.soft;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Consumer;
import org.softrnic.nic.cm.Cma;
import org.softrnic.nic.cm.CmaId;
import org.softrnic.verbs.Errno;
import org.softrnic.verbs.Gid;
import org.softrnic.verbs.ProtectionDomain;
import org.softrnic.verbs.QpInitAttr;
import org.softrnic.verbs.QueuePair;
import org.softrnic.verbs.RdmaContext;
import org.softrnic.verbs.VerbsException;
import org.softrnic.verbs.cm.CmId;
import org.softrnic.verbs.cm.ConnParam;
import org.softrnic.verbs.cm.PortSpace;

/**
 * An rdma_cm id on a soft RNIC: the device is the one whose GID the bound (or source) address is; every verb
 * runs on the device's thread, in the model's {@link Cma}, and its event comes on the channel.
 */
final class SoftCmId implements CmId {
    final SoftEventChannel channel;
    private final PortSpace ps;
    private volatile SoftRnic device;
    private volatile CmaId id;
    private volatile RdmaContext verbs;
    private volatile QueuePair qp;

    SoftCmId(SoftEventChannel channel, PortSpace ps, SoftRnic device, CmaId id, RdmaContext verbs) {
        this.channel = channel;
        this.ps = ps;
        this.device = device;
        this.id = id;
        this.verbs = verbs;
        if (device != null) {
            channel.ids.add(this);
            channel.uses(device);
        }
    }

    /** The device owning {@code address}, or (null) the first soft RNIC that is not {@code except}'s. */
    private static SoftRnic deviceFor(String verb, InetAddress address, InetAddress except) {
        for (var d : new SoftProvider().devices()) {
            SoftRnic r = (SoftRnic) d;
            if (address != null && !address.isAnyLocalAddress()) {
                if (r.nic.gids().contains(Gid.of(address))) return r;
            } else if (except == null || !r.nic.gids().contains(Gid.of(except))) {
                return r;
            }
        }
        throw new VerbsException(verb, address == null ? Errno.ENODEV : Errno.EADDRNOTAVAIL,
                address == null ? "no soft RNIC to send from" : "no soft RNIC has the address " + address.getHostAddress());
    }

    private synchronized void attach(SoftRnic d) {
        if (device != null) return;
        device = d;
        verbs = channel.context(d);
        channel.uses(d);
        id = d.runner.call(() -> d.cm().cma.createId(ps, this));
    }

    private void inModel(String verb, Consumer<Cma> body) {
        SoftRnic d = device;
        if (d == null || id == null) throw new VerbsException(verb, Errno.EINVAL, "the id has no device yet: bind it or resolve an address first");
        d.runner.run(() -> body.accept(d.cm().cma));
    }

    @Override
    public void bind(InetSocketAddress local) {
        attach(deviceFor("rdma_bind_addr", local.getAddress(), null));
        inModel("rdma_bind_addr", c -> c.bind(id, local));
    }

    @Override
    public void resolveAddr(InetSocketAddress source, InetSocketAddress destination, Duration timeout) {
        if (destination == null) throw new VerbsException("rdma_resolve_addr", Errno.EINVAL, "no destination");
        if (device == null) attach(deviceFor("rdma_resolve_addr", source == null ? null : source.getAddress(), destination.getAddress()));
        inModel("rdma_resolve_addr", c -> c.resolveAddr(id, source, destination));
    }

    @Override
    public void resolveRoute(Duration timeout) {
        inModel("rdma_resolve_route", c -> c.resolveRoute(id));
    }

    @Override
    public void listen(int backlog) {
        inModel("rdma_listen", c -> c.listen(id));
    }

    @Override
    public QueuePair createQp(ProtectionDomain pd, QpInitAttr init) {
        String verb = "rdma_create_qp";
        if (device == null) throw new VerbsException(verb, Errno.EINVAL, "the id has no device yet");
        if (!(pd instanceof SoftPd p) || p.device != device) throw new VerbsException(verb, Errno.EINVAL, "the PD is not of the id's device");
        if (qp != null) throw new VerbsException(verb, Errno.EINVAL, "the id has a QP already");
        QueuePair made = pd.createQp(init);
        try {
            inModel(verb, c -> c.attachQp(id, ((SoftQp) made).qp));
        } catch (RuntimeException e) {
            made.close();
            throw e;
        }
        qp = made;
        return made;
    }

    @Override
    public void setTos(int tos) {
        if (tos < 0 || tos > 0xff) throw new VerbsException("rdma_set_option", Errno.EINVAL, "a ToS is 0..255, not " + tos);
        inModel("rdma_set_option", c -> c.setTos(id, tos));
    }

    @Override
    public void setAckTimeout(int timeout) {
        if (timeout < 0 || timeout > 31) throw new VerbsException("rdma_set_option", Errno.EINVAL, "an ACK timeout is 0..31, not " + timeout);
        inModel("rdma_set_option", c -> c.setAckTimeout(id, timeout));
    }

    @Override
    public void connect(ConnParam param) {
        inModel("rdma_connect", c -> c.connect(id, param == null ? ConnParam.DEFAULT : param));
    }

    @Override
    public void accept(ConnParam param) {
        inModel("rdma_accept", c -> c.accept(id, param == null ? ConnParam.DEFAULT : param));
    }

    @Override
    public void reject(byte[] privateData) {
        inModel("rdma_reject", c -> c.reject(id, privateData));
    }

    @Override
    public void disconnect() {
        inModel("rdma_disconnect", c -> c.disconnect(id));
    }

    @Override
    public RdmaContext verbs() {
        return verbs;
    }

    @Override
    public QueuePair qp() {
        return qp;
    }

    @Override
    public InetSocketAddress localAddress() {
        CmaId i = id;
        return i == null ? null : i.local();
    }

    @Override
    public InetSocketAddress peerAddress() {
        CmaId i = id;
        return i == null ? null : i.peer();
    }

    @Override
    public PortSpace portSpace() {
        return ps;
    }

    @Override
    public void close() {
        if (!channel.ids.remove(this)) return;
        SoftRnic d = device;
        if (d != null && id != null) d.runner.run(() -> d.cm().cma.destroy(id));
    }

    @Override
    public String toString() {
        return "rdma_cm id " + localAddress() + " -> " + peerAddress();
    }
}
