package org.softrnic.emulator.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Netty's half of the UDP baseline: an epoll channel on its own event loop sends datagrams of SIZE bytes
 * in flushed bursts of 32 (one sendmmsg each) from 127.0.0.1 to 127.0.0.2, where another epoll channel
 * reads them with recvmmsg (MAX_DATAGRAM_PAYLOAD_SIZE set); prints the received rate.
 * Usage: NettyDatagramRate SIZE SECONDS PORT
 */
public final class NettyDatagramRate {
    private static final int BURST = 32;

    public static void main(String[] args) throws Exception {
        int size = Integer.parseInt(args[0]);
        double seconds = Double.parseDouble(args[1]);
        int port = Integer.parseInt(args[2]);
        if (!Epoll.isAvailable()) throw new IllegalStateException("Netty epoll is not available", Epoll.unavailabilityCause());
        EventLoopGroup rxGroup = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        EventLoopGroup txGroup = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        AtomicLong received = new AtomicLong();
        try {
            Channel rx = new Bootstrap().group(rxGroup).channel(EpollDatagramChannel.class)
                    .option(ChannelOption.SO_RCVBUF, 4 << 20)
                    .option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, size)
                    .option(ChannelOption.RCVBUF_ALLOCATOR, new io.netty.channel.FixedRecvByteBufAllocator(size * BURST))
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            received.incrementAndGet();
                            ReferenceCountUtil.release(msg);
                        }
                    })
                    .bind(new InetSocketAddress(InetAddress.ofLiteral("127.0.0.2"), port)).sync().channel();
            Channel tx = new Bootstrap().group(txGroup).channel(EpollDatagramChannel.class)
                    .option(ChannelOption.SO_SNDBUF, 4 << 20)
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new io.netty.channel.WriteBufferWaterMark(size * 64, size * 256))
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                            if (ctx.channel().isWritable()) burst(ctx.channel(), size, port);
                        }
                    })
                    .bind(new InetSocketAddress(InetAddress.ofLiteral("127.0.0.1"), 0)).sync().channel();
            tx.eventLoop().execute(() -> burst(tx, size, port));
            Thread.sleep((long) (seconds / 4 * 1000)); // warm-up
            long n0 = received.get();
            long t0 = System.nanoTime();
            Thread.sleep((long) (seconds * 1000));
            long n1 = received.get();
            double elapsed = (System.nanoTime() - t0) / 1e9;
            stopped = true;
            System.out.printf("datagrams_per_second %.0f%n", (n1 - n0) / elapsed);
            tx.close().sync();
            rx.close().sync();
        } finally {
            txGroup.shutdownGracefully().sync();
            rxGroup.shutdownGracefully().sync();
        }
    }

    private static volatile boolean stopped;

    /** Writes bursts while the channel takes them; writability brings it back when it is full. */
    private static void burst(Channel ch, int size, int port) {
        InetSocketAddress to = new InetSocketAddress(InetAddress.ofLiteral("127.0.0.2"), port);
        while (!stopped && ch.isWritable()) {
            for (int i = 0; i < BURST; i++) {
                ByteBuf b = ch.alloc().directBuffer(size).writerIndex(size);
                ch.write(new DatagramPacket(b, to));
            }
            ch.flush();
        }
    }
}
