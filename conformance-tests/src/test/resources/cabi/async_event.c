/*
 * An asynchronous event through softrnic's libibverbs, as a program meets one: two RC QPs of one process connected to
 * each other, a send CQ with room for a few completions, one signalled WRITE more than it holds. That completion overflows the CQ,
 * and IBV_EVENT_CQ_ERR arrives on the context's async_fd, which the program poll()s before ibv_get_async_event.
 * Prints "event <name> on the CQ" and exits 0, or says what went wrong and exits 1.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#define CHECK(x, what) do { if (!(x)) { fprintf(stderr, "failed: %s\n", what); return 1; } } while (0)

static int connect_qp(struct ibv_qp *qp, struct ibv_qp *peer, union ibv_gid *gid)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				 .qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_LOCAL_WRITE };
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return 1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = peer->qp_num;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN
			  | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return 1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN
			     | IBV_QP_MAX_QP_RD_ATOMIC);
}

int main(void)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	CHECK(list && list[0], "no device");
	struct ibv_context *ctx = ibv_open_device(list[0]);
	CHECK(ctx, "ibv_open_device");
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	static char buf[4096];
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	struct ibv_cq *small = ibv_create_cq(ctx, 1, NULL, NULL, 0);
	struct ibv_cq *other = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	CHECK(pd && mr && small && other, "resources");
	struct ibv_qp_init_attr init = { .send_cq = small, .recv_cq = other, .qp_type = IBV_QPT_RC,
					 .cap = { .max_send_wr = 64, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 } };
	struct ibv_qp *a = ibv_create_qp(pd, &init);
	init.send_cq = other;
	struct ibv_qp *b = ibv_create_qp(pd, &init);
	union ibv_gid gid;
	CHECK(a && b && !ibv_query_gid(ctx, 1, 0, &gid), "QPs and the GID");
	CHECK(!connect_qp(a, b, &gid) && !connect_qp(b, a, &gid), "connecting the QPs");
	CHECK(small->cqe < 63, "the small CQ holds fewer completions than the WRITEs");
	for (int i = 0; i <= small->cqe; i++) {
		struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = 64, .lkey = mr->lkey };
		struct ibv_send_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
					  .send_flags = IBV_SEND_SIGNALED, .wr.rdma = { (uintptr_t)buf + 1024, mr->rkey } }, *bad;
		CHECK(!ibv_post_send(a, &wr, &bad), "ibv_post_send");
	}
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };
	CHECK(poll(&p, 1, 10000) == 1, "no asynchronous event within 10 s");
	struct ibv_async_event e;
	CHECK(!ibv_get_async_event(ctx, &e), "ibv_get_async_event");
	printf("event %s on the %s\n", ibv_event_type_str(e.event_type), e.element.cq == small ? "CQ" : "wrong object");
	ibv_ack_async_event(&e);
	return e.event_type == IBV_EVENT_CQ_ERR && e.element.cq == small ? 0 : 1;
}
