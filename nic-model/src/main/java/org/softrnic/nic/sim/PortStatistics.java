package org.softrnic.nic.sim;

/**
 * What one port of a switched fabric did since its statistics started: packets offered to its queue, sent, bytes
 * sent (with Ethernet framing), dropped, CE-marked, pause frames it sent upstream (as a switch ingress), and its
 * queue's time-weighted mean, maximum and current depth in bytes.
 */
public record PortStatistics(String name, long arrivals, long txPackets, long txBytes, long drops, long marks,
                             long pauseFramesSent, double meanQueueBytes, long maxQueueBytes, long queuedBytes) { }
