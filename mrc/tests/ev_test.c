// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "mrc-ev": the EV set and paths of mrc/ev*.c.  The fixture's
 * device gets eight planes that are up, and the QP an active set installed
 * over them.  The suite proves that the set is split equally over the
 * planes with distinct entropies and spares; that the rotation uses every
 * usable slot once per pass, finds a lone GOOD slot across reshuffles,
 * never takes a slot that is ASSUMED_BAD, DENIED, sitting out its turn
 * after congestion, or on a plane that went down, and walks the slots of
 * the one plane left to retransmissions that avoid it; that a loss on an
 * EV, proved by a later packet from the same CPU, retires it (a spare
 * entropy of the same plane, else ASSUMED_BAD, never below the floor,
 * which counts a refusal as nothing else), as does
 * suspicion twice in a row; that probe answers bring slots and retired
 * entropies back; and, through the real requester of requester.c and the
 * SACK handling of completer.c, that the path of a lost packet is retired
 * inside the very call that learns of the loss, and the packet goes again
 * on another plane, as does a second one lost on the same path.  The
 * controller's deny and undeny are checked whole before they apply, keep
 * one allowed slot, and a DENIED slot is never sent on, retired, skipped
 * or probed.  A peer's port status makes its down planes down for the QP,
 * newest sequence first, and the QP's own goes out twice, on two planes.
 * Under the STEV format each EV's flow label is the documented
 * one-to-one function of its entropy, and the label mrc_net_xmit() puts on
 * a packet is its EV's (the AV's under UDP).
 */
#include <kunit/test.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/timer.h>

#include "qp_fixture.h"
#include "../trace.h"

#define EV_PLANES	8
#define EV_N		128
#define EV_PER_PLANE	(EV_N / EV_PLANES)
#define EV_SQ_PSN	5000
#define EV_REMOTE_VA	0x6600000000ULL
#define EV_REMOTE_RKEY	0x2468

/* Runs of the stand-in probe timer: they prove a probe was scheduled. */
static atomic_t ev_probe_runs;

/*
 * The fixture's device has no network namespace and its planes no netdev:
 * a real probe would be sent through them.  The stand-in only notes that
 * the timer fired.
 */
static void ev_probe_stub(struct timer_list *t)
{
	atomic_inc(&ev_probe_runs);
}

/* Only this suite writes the pointers, from the case's own thread. */
static struct mrc_plane *ev_plane(struct tf *f, u32 i)
{
	return rcu_dereference_protected(f->mdev->planes[i], true);
}

static u64 ev_cnt(struct tf *f, u32 pl, enum mrc_counter c)
{
	return atomic64_read(&f->mdev->cnt[pl].c[c]);
}

/* A new active set of @n EVs over the planes in @mask, as modify_qp does. */
static void ev_install_srv6(struct tf *f, u32 mask, u32 n,
			    struct mrc_srv6_dst *srv6)
{
	struct mrc_path *paths;
	u32 i;

	paths = kunit_kcalloc(f->test, MRC_MAX_PLANES, sizeof(*paths),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(f->test, paths);
	for (i = 0; i < MRC_MAX_PLANES; i++) {
		paths[i].valid = mask & BIT(i);
		paths[i].av.family = AF_INET;
		paths[i].av.plane = i;
		paths[i].av.saddr.v4 = htonl(0x0a000001 | i << 8);
		paths[i].av.daddr.v4 = htonl(0x0a000002 | i << 8);
	}
	spin_lock_bh(&f->qp->lock);
	mrc_ev_install(f->qp, paths, n, srv6);
	spin_unlock_bh(&f->qp->lock);
}

static void ev_install_mask(struct tf *f, u32 mask, u32 n)
{
	ev_install_srv6(f, mask, n, NULL);
}

static void ev_install(struct tf *f, u32 n)
{
	ev_install_mask(f, GENMASK(EV_PLANES - 1, 0), n);
}

/* The ev*.c calls, each under qp->lock as the data path makes them. */
static int ev_pick(struct tf *f, int avoid_plane)
{
	int slot;

	spin_lock_bh(&f->qp->lock);
	slot = mrc_ev_pick(f->qp, avoid_plane);
	spin_unlock_bh(&f->qp->lock);
	return slot;
}

/* A pick that must land on an active slot. */
static u32 ev_pick_slot(struct tf *f, int avoid_plane)
{
	int slot = ev_pick(f, avoid_plane);

	KUNIT_ASSERT_GE(f->test, slot, 0);
	KUNIT_ASSERT_LT(f->test, slot, (int)f->qp->evs->n);
	return slot;
}

static u32 ev_send(struct tf *f, int slot, u32 *ev)
{
	u32 seq;

	spin_lock_bh(&f->qp->lock);
	mrc_ev_sent(f->qp, slot, ev, &seq);
	spin_unlock_bh(&f->qp->lock);
	return seq;
}

/* The packet sent as the @seq-th on @ev, from CPU @cpu, is acknowledged. */
static void ev_acked_on(struct tf *f, u32 ev, u32 seq, u16 cpu)
{
	spin_lock_bh(&f->qp->lock);
	mrc_ev_acked(f->qp, ev, seq, cpu);
	spin_unlock_bh(&f->qp->lock);
}

static bool ev_lost_on(struct tf *f, u32 ev, u32 seq, u16 cpu)
{
	bool lost;

	spin_lock_bh(&f->qp->lock);
	lost = mrc_ev_lost(f->qp, ev, seq, cpu);
	spin_unlock_bh(&f->qp->lock);
	return lost;
}

/* The same for packets that all left from one CPU. */
static void ev_acked(struct tf *f, u32 ev, u32 seq)
{
	ev_acked_on(f, ev, seq, 0);
}

static bool ev_lost(struct tf *f, u32 ev, u32 seq)
{
	return ev_lost_on(f, ev, seq, 0);
}

static void ev_retire(struct tf *f, u32 ev)
{
	spin_lock_bh(&f->qp->lock);
	mrc_ev_retire(f->qp, ev, MRC_EV_WHY_LOST);
	spin_unlock_bh(&f->qp->lock);
}

/* The packet sent as the @seq-th on @ev, at @sent_ns, is overdue by distance. */
static void ev_suspect_at(struct tf *f, u32 ev, u32 seq, u64 sent_ns)
{
	spin_lock_bh(&f->qp->lock);
	mrc_ev_suspect(f->qp, ev, seq, sent_ns, MRC_EV_WHY_SUSPECT);
	spin_unlock_bh(&f->qp->lock);
}

/* The same for a packet that left just now. */
static void ev_suspect(struct tf *f, u32 ev, u32 seq)
{
	ev_suspect_at(f, ev, seq, ktime_get_ns());
}

static void ev_skip(struct tf *f, u32 ev)
{
	spin_lock_bh(&f->qp->lock);
	mrc_ev_skip(f->qp, ev);
	spin_unlock_bh(&f->qp->lock);
}

static void ev_verdict(struct tf *f, u32 ev, u8 m, bool probe)
{
	spin_lock_bh(&f->qp->lock);
	mrc_ev_verdict(f->qp, ev, m, probe);
	spin_unlock_bh(&f->qp->lock);
}

/* Two probe answers for retired entropy @entropy of plane @pl. */
static void ev_recover(struct tf *f, u8 pl, u16 entropy)
{
	ev_verdict(f, mrc_ev_untracked(pl, entropy), MRC_SACK_M_NONE, true);
	ev_verdict(f, mrc_ev_untracked(pl, entropy), MRC_SACK_M_NONE, true);
}

static u32 ev_retired_used(struct tf *f, u32 pl)
{
	u32 i, n = 0;

	for (i = 0; i < MRC_EV_RETIRED; i++)
		n += f->qp->evs->retired[pl][i].used;
	return n;
}

/* The retired entry of plane @pl holding @entropy, or NULL. */
static struct mrc_ev_spare *ev_retired_find(struct tf *f, u32 pl, u16 entropy)
{
	struct mrc_ev_spare *r = f->qp->evs->retired[pl];
	u32 i;

	for (i = 0; i < MRC_EV_RETIRED; i++)
		if (r[i].used && r[i].entropy == entropy)
			return &r[i];
	return NULL;
}

/* A GOOD slot, the first from @from on; the case needs one to exist. */
static u32 ev_good_slot(struct tf *f, u32 from)
{
	struct mrc_evset *s = f->qp->evs;
	u32 i;

	for (i = from; i < s->n; i++)
		if (s->ev[i].state == MRC_EV_STATE_GOOD)
			return i;
	KUNIT_ASSERT_FAILURE(f->test, "no GOOD slot from %u on", from);
	return 0;
}

/*
 * What the last retirement of the case's QP reported through the
 * mrc_ev_retire tracepoint, as the benchmarks read it: how many packets
 * the retired EV was given after its first loss signal.
 */
static struct {
	u32 qpn;
	u32 sent_after;
	bool registered;
} ev_retire_seen;

static void ev_retire_probe(void *data, u32 qpn, u32 old_ev, u32 new_ev,
			    u64 took_ns, u32 after, u8 why)
{
	if (qpn == ev_retire_seen.qpn)
		WRITE_ONCE(ev_retire_seen.sent_after, after);
}

static int ev_init(struct kunit *test)
{
	struct mrc_plane *plane;
	struct tf *f;
	u32 i;
	int err;

	err = tf_init(test);
	if (err)
		return err;
	f = test->priv;

	/*
	 * The fixture's QP got route caches for its one port.  They go
	 * before nports changes (mrc_ev_destroy() frees nports of them) and
	 * come back for all eight after, so tf_exit() frees what exists.
	 */
	mrc_ev_destroy(f->qp);
	for (i = 0; i < EV_PLANES; i++) {
		plane = kunit_kzalloc(test, sizeof(*plane), GFP_KERNEL);
		if (!plane)
			return -ENOMEM;
		plane->mdev = f->mdev;
		plane->index = i;
		plane->up = true;
		RCU_INIT_POINTER(f->mdev->planes[i], plane);
	}
	f->mdev->nplanes = EV_PLANES;
	f->mdev->nports = EV_PLANES;
	err = mrc_ev_init(f->qp);
	if (err)
		return err;
	/* Never armed yet: it can be set up again. */
	timer_setup(&f->qp->evs->probe_timer, ev_probe_stub, 0);
	atomic_set(&ev_probe_runs, 0);

	tf_set_psn(f, 100, EV_SQ_PSN);
	ev_install(f, EV_N);
	ev_retire_seen.qpn = f->qp->ibqp.qp_num;
	ev_retire_seen.sent_after = 0;
	err = register_trace_mrc_ev_retire(ev_retire_probe, NULL);
	ev_retire_seen.registered = !err;
	return err;
}

static void ev_exit(struct kunit *test)
{
	struct tf *f = test->priv;
	u32 i;

	/*
	 * KUnit frees the planes after this returns; tf_exit() destroys the
	 * QP, whose evs still has eight route caches (nports stays 8).
	 */
	if (ev_retire_seen.registered) {
		unregister_trace_mrc_ev_retire(ev_retire_probe, NULL);
		tracepoint_synchronize_unregister();
		ev_retire_seen.registered = false;
	}
	if (f && f->mdev)
		for (i = 0; i < EV_PLANES; i++)
			RCU_INIT_POINTER(f->mdev->planes[i], NULL);
	tf_exit(test);
}

static void ev_install_splits_planes(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 per_plane[EV_PLANES] = {};
	bool in_order[EV_N] = {};
	u32 i, j, pl;

	KUNIT_ASSERT_EQ(test, s->n, EV_N);
	KUNIT_EXPECT_EQ(test, s->min_active, EV_N / 4);
	KUNIT_EXPECT_EQ(test, mrc_ev_count_state(f->qp, MRC_EV_STATE_GOOD),
			EV_N);
	for (i = 0; i < EV_N; i++) {
		const struct mrc_ev *e = &s->ev[i];
		u16 ent = mrc_ev_entropy(e->value);

		KUNIT_ASSERT_LT(test, e->plane, EV_PLANES);
		per_plane[e->plane]++;
		KUNIT_EXPECT_EQ(test, e->state, MRC_EV_STATE_GOOD);
		/* The value names its own plane and slot, nothing else. */
		KUNIT_EXPECT_EQ(test, e->value, mrc_ev_value(e->plane, i, ent));
		KUNIT_EXPECT_EQ(test, mrc_ev_plane(e->value), e->plane);
		KUNIT_EXPECT_EQ(test, mrc_ev_slot(e->value), i);
		/* Two slots of a plane on one entropy would be one path. */
		for (j = 0; j < i; j++)
			if (s->ev[j].plane == e->plane)
				KUNIT_EXPECT_NE(test,
						mrc_ev_entropy(s->ev[j].value),
						ent);
		/* The rotation order is a permutation of the slots. */
		KUNIT_ASSERT_LT(test, s->order[i], EV_N);
		KUNIT_EXPECT_FALSE(test, in_order[s->order[i]]);
		in_order[s->order[i]] = true;
	}
	for (pl = 0; pl < EV_PLANES; pl++) {
		KUNIT_EXPECT_EQ(test, per_plane[pl], EV_PER_PLANE);
		KUNIT_EXPECT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP);
		KUNIT_EXPECT_EQ(test, ev_retired_used(f, pl), 0U);
		KUNIT_EXPECT_TRUE(test, s->path[pl].valid);
		KUNIT_EXPECT_EQ(test, s->path[pl].av.plane, pl);
		/* A spare must differ from every active entropy it may join. */
		for (j = 0; j < MRC_EV_BACKUP; j++)
			for (i = 0; i < EV_N; i++)
				if (s->ev[i].plane == pl)
					KUNIT_EXPECT_NE(test,
							mrc_ev_entropy(s->ev[i].value),
							s->backup[pl][j]);
	}
	for (pl = EV_PLANES; pl < MRC_MAX_PLANES; pl++)
		KUNIT_EXPECT_FALSE(test, s->path[pl].valid);
}

/*
 * The spares of a plane become active entropies when slots retire: two
 * equal spares would put two slots on one path.  One install has a ~1.4%
 * chance of a pair if they are not drawn apart, so many installs are done.
 */
static void ev_install_spares_distinct(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 round, pl, i, j;

	for (round = 0; round < 500; round++) {
		ev_install(f, EV_N);
		for (pl = 0; pl < EV_PLANES; pl++) {
			KUNIT_ASSERT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP);
			for (i = 0; i < MRC_EV_BACKUP; i++)
				for (j = 0; j < i; j++)
					KUNIT_ASSERT_NE_MSG(test,
							    s->backup[pl][i],
							    s->backup[pl][j],
							    "install %u plane %u",
							    round, pl);
		}
	}
}

static void ev_install_clamps_and_splits(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 i, per0 = 0, per5 = 0, ev, seq;

	/* Two planes, an odd count: the first plane gets the extra slot. */
	ev_install_mask(f, BIT(0) | BIT(5), 7);
	KUNIT_ASSERT_EQ(test, s->n, 7);
	KUNIT_EXPECT_EQ(test, s->min_active, 1);
	for (i = 0; i < s->n; i++) {
		KUNIT_EXPECT_EQ(test, mrc_ev_plane(s->ev[i].value),
				s->ev[i].plane);
		per0 += s->ev[i].plane == 0;
		per5 += s->ev[i].plane == 5;
	}
	KUNIT_EXPECT_EQ(test, per0, 4);
	KUNIT_EXPECT_EQ(test, per5, 3);
	KUNIT_EXPECT_FALSE(test, s->path[1].valid);
	/* No slot of a plane without a path is ever picked. */
	for (i = 0; i < 10 * 7; i++) {
		u32 slot = ev_pick_slot(f, -1);

		KUNIT_ASSERT_TRUE(test, s->ev[slot].plane == 0 ||
				  s->ev[slot].plane == 5);
	}

	/* Fewer EVs than planes: every plane still gets one. */
	ev_install(f, 3);
	KUNIT_EXPECT_EQ(test, s->n, EV_PLANES);
	/* More than the set holds: clamped. */
	ev_install(f, 1000);
	KUNIT_EXPECT_EQ(test, s->n, MRC_EV_MAX);
	KUNIT_EXPECT_EQ(test, s->min_active, MRC_EV_MAX / 4);

	/* No path at all: no set, and a packet leaves on the QP's AV. */
	ev_install_mask(f, 0, EV_N);
	KUNIT_EXPECT_EQ(test, s->n, 0);
	KUNIT_EXPECT_EQ(test, ev_pick(f, -1), -1);
	seq = ev_send(f, -1, &ev);
	KUNIT_EXPECT_EQ(test, ev, mrc_ev_untracked(f->qp->av.plane, 0));
	KUNIT_EXPECT_EQ(test, seq, 0);
}

static void ev_pick_rotation_fair(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 per_plane[EV_PLANES] = {};
	u32 *count, r, i;

	count = kunit_kcalloc(test, EV_N, sizeof(*count), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, count);
	for (r = 1; r <= 10; r++) {
		for (i = 0; i < EV_N; i++)
			count[ev_pick_slot(f, -1)]++;
		/* One rotation, reshuffled or not, is every slot once. */
		for (i = 0; i < EV_N; i++)
			KUNIT_ASSERT_EQ_MSG(test, count[i], r, "slot %u", i);
	}
	/* Ten passes are rotations 0..9, across the reshuffle at 8. */
	KUNIT_EXPECT_EQ(test, s->rotation, 9);
	for (i = 0; i < EV_N; i++)
		per_plane[s->ev[i].plane] += count[i];
	for (i = 0; i < EV_PLANES; i++)
		KUNIT_EXPECT_EQ(test, per_plane[i], 10 * EV_PER_PLANE);
}

static void ev_pick_never_bad_or_denied(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 *count, i, good = 0, bad = 0, denied = 0;

	count = kunit_kcalloc(test, EV_N, sizeof(*count), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, count);
	for (i = 0; i < EV_N; i++) {
		if (s->ev[i].plane == 1) {
			s->ev[i].state = MRC_EV_STATE_ASSUMED_BAD;
			bad++;
		} else if (i % 5 == 0) {
			s->ev[i].state = MRC_EV_STATE_DENIED;
			denied++;
		} else {
			good++;
		}
	}
	/* The GOOD ones keep sharing evenly: six passes, six each. */
	for (i = 0; i < 6 * good; i++) {
		u32 slot = ev_pick_slot(f, -1);

		KUNIT_ASSERT_EQ_MSG(test, s->ev[slot].state, MRC_EV_STATE_GOOD,
				    "pick %u took slot %u", i, slot);
		count[slot]++;
	}
	for (i = 0; i < EV_N; i++)
		KUNIT_EXPECT_EQ(test, count[i],
				s->ev[i].state == MRC_EV_STATE_GOOD ? 6U : 0U);
	/* Passing over a slot changes nothing about it. */
	KUNIT_EXPECT_EQ(test,
			mrc_ev_count_state(f->qp, MRC_EV_STATE_ASSUMED_BAD),
			bad);
	KUNIT_EXPECT_EQ(test, mrc_ev_count_state(f->qp, MRC_EV_STATE_DENIED),
			denied);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 0);

	/*
	 * Nothing GOOD: the packet still goes somewhere, but never on a slot
	 * the controller denied.  With every slot denied (which EV_SET never
	 * allows) it leaves untracked, on the AV's plane.
	 */
	for (i = 0; i < EV_N; i++)
		if (s->ev[i].state == MRC_EV_STATE_GOOD)
			s->ev[i].state = MRC_EV_STATE_ASSUMED_BAD;
	for (i = 0; i < 2 * EV_N; i++)
		KUNIT_ASSERT_EQ(test, s->ev[ev_pick_slot(f, -1)].state,
				MRC_EV_STATE_ASSUMED_BAD);
	for (i = 0; i < EV_N; i++)
		s->ev[i].state = MRC_EV_STATE_DENIED;
	KUNIT_EXPECT_EQ(test, ev_pick(f, -1), -1);
}

/*
 * One GOOD slot among DENIED ones: each pick scans from where the last one
 * stopped, across the end of the rotation.  Every MRC_EV_RESHUFFLE-th end
 * reshuffles the order, and the scan must still find the one GOOD slot
 * rather than give up and fall back to a DENIED one.
 */
static void ev_pick_lone_good_across_reshuffles(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 lone = 77;
	u32 i;

	for (i = 0; i < EV_N; i++)
		if (i != lone)
			s->ev[i].state = MRC_EV_STATE_DENIED;
	/* Each pick ends one rotation: 64 reshuffles. */
	for (i = 0; i < 64 * MRC_EV_RESHUFFLE; i++)
		KUNIT_ASSERT_EQ_MSG(test, ev_pick_slot(f, -1), lone,
				    "pick %u, rotation %u", i, s->rotation);
	KUNIT_EXPECT_GE(test, s->rotation, 64 * MRC_EV_RESHUFFLE - 1);
}

static void ev_pick_avoids_plane(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const int p = 2;
	u32 i, slot;

	for (i = 0; i < 3 * EV_N; i++) {
		slot = ev_pick_slot(f, p);
		KUNIT_ASSERT_NE(test, s->ev[slot].plane, p);
	}

	/* Only plane p works: a retransmission takes it rather than none. */
	for (i = 0; i < EV_N; i++)
		if (s->ev[i].plane != p)
			s->ev[i].state = i & 1 ? MRC_EV_STATE_ASSUMED_BAD :
						 MRC_EV_STATE_DENIED;
	for (i = 0; i < 3 * EV_N; i++) {
		slot = ev_pick_slot(f, p);
		KUNIT_ASSERT_EQ(test, s->ev[slot].plane, p);
		KUNIT_ASSERT_EQ(test, s->ev[slot].state, MRC_EV_STATE_GOOD);
	}
}

/*
 * EV_PER_PLANE picks avoiding plane @p when only @p has usable slots, from
 * a fresh rotation: each takes the next of @p's slots rather than the first
 * one again, and the rotation goes on after the last one taken, without a
 * pass over the whole order for each.
 */
static void ev_pick_walk_avoided(struct tf *f, int p)
{
	struct kunit *test = f->test;
	struct mrc_evset *s = f->qp->evs;
	bool taken[EV_N] = {};
	u32 i, slot, last = 0;

	KUNIT_ASSERT_EQ(test, s->cursor, 0);
	KUNIT_ASSERT_EQ(test, s->rotation, 0);
	for (i = 0; i < EV_PER_PLANE; i++) {
		slot = ev_pick_slot(f, p);
		KUNIT_ASSERT_EQ_MSG(test, s->ev[slot].plane, p, "pick %u", i);
		KUNIT_EXPECT_EQ(test, s->ev[slot].state, MRC_EV_STATE_GOOD);
		KUNIT_ASSERT_FALSE_MSG(test, taken[slot],
				       "pick %u took slot %u again", i, slot);
		taken[slot] = true;
		last = slot;
	}
	/* All of the plane's slots once: one rotation, not one per pick. */
	KUNIT_EXPECT_EQ(test, s->rotation, 0);
	/* The next packet takes the slot after the last one, not that one. */
	KUNIT_EXPECT_NE(test, ev_pick_slot(f, -1), last);
}

/*
 * A burst of retransmissions off plane p, when p is all that works: they
 * take p's slots in turn instead of piling onto one path, whether the
 * other planes' slots are DENIED or their planes went down.
 */
static void ev_pick_avoided_plane_rotates(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const int p = 6;
	u32 i, pl;

	for (i = 0; i < EV_N; i++)
		if (s->ev[i].plane != p)
			s->ev[i].state = MRC_EV_STATE_DENIED;
	ev_pick_walk_avoided(f, p);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 0);

	ev_install(f, EV_N);
	for (pl = 0; pl < EV_PLANES; pl++)
		if (pl != p)
			WRITE_ONCE(ev_plane(f, pl)->up, false);
	ev_pick_walk_avoided(f, p);
	/* The first pick found every other slot down, once each. */
	KUNIT_EXPECT_EQ(test,
			mrc_ev_count_state(f->qp, MRC_EV_STATE_ASSUMED_BAD),
			EV_N - EV_PER_PLANE);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD),
			EV_N - EV_PER_PLANE);
	KUNIT_EXPECT_EQ(test, ev_cnt(f, p, MRC_CNT_EV_ASSUMED_BAD), 0);
}

/*
 * Every slot of plane @pl, and only those, is ASSUMED_BAD, each counted
 * once, when it was found on the dead plane.
 */
static void ev_expect_plane_bad(struct tf *f, u8 pl)
{
	struct mrc_evset *s = f->qp->evs;
	u32 i;

	for (i = 0; i < EV_N; i++)
		KUNIT_EXPECT_EQ(f->test, s->ev[i].state,
				s->ev[i].plane == pl ? MRC_EV_STATE_ASSUMED_BAD :
						       MRC_EV_STATE_GOOD);
	KUNIT_EXPECT_EQ(f->test, ev_cnt(f, pl, MRC_CNT_EV_ASSUMED_BAD),
			EV_PER_PLANE);
	KUNIT_EXPECT_EQ(f->test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD),
			EV_PER_PLANE);
}

static void ev_pick_plane_down(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 i, slot;

	WRITE_ONCE(ev_plane(f, 3)->up, false);
	/* Two passes: every slot of plane 3 is met at least once. */
	for (i = 0; i < 2 * EV_N; i++) {
		slot = ev_pick_slot(f, -1);
		KUNIT_ASSERT_NE(test, s->ev[slot].plane, 3);
	}
	ev_expect_plane_bad(f, 3);
	/* They are probed now. */
	KUNIT_EXPECT_TRUE(test, timer_pending(&s->probe_timer) ||
			  atomic_read(&ev_probe_runs));

	/* The plane back up does not bring them back: probes do. */
	WRITE_ONCE(ev_plane(f, 3)->up, true);
	for (i = 0; i < EV_N; i++) {
		slot = ev_pick_slot(f, -1);
		KUNIT_ASSERT_NE(test, s->ev[slot].plane, 3);
	}
}

/*
 * No GOOD slot left at all: the pick falls back to an ASSUMED_BAD slot on
 * a plane that is up, and not on the plane to avoid, rather than to the
 * first slot it met.
 */
static void ev_pick_fallback_live_plane(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 i, pl, slot;

	for (i = 0; i < EV_N; i++)
		s->ev[i].state = MRC_EV_STATE_ASSUMED_BAD;
	for (pl = 0; pl < EV_PLANES; pl++)
		if (pl != 2 && pl != 5)
			WRITE_ONCE(ev_plane(f, pl)->up, false);
	for (i = 0; i < 2 * EV_N; i++) {
		slot = ev_pick_slot(f, -1);
		pl = s->ev[slot].plane;
		KUNIT_ASSERT_TRUE(test, pl == 2 || pl == 5);
		slot = ev_pick_slot(f, 2);
		KUNIT_ASSERT_EQ(test, s->ev[slot].plane, 5);
	}
	/* Nothing is GOOD again by being picked. */
	KUNIT_EXPECT_EQ(test, mrc_ev_count_state(f->qp, MRC_EV_STATE_GOOD), 0);
}

static void ev_retire_takes_spare(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 k = 37;
	struct mrc_ev *e = &s->ev[k];
	u32 old = e->value, ev, pl;
	u8 plane = e->plane;
	u16 spare = s->backup[plane][MRC_EV_BACKUP - 1];
	struct mrc_ev_spare *r;

	/* Traffic on the old entropy, so its per-EV order is not fresh. */
	ev_send(f, k, &ev);
	ev_send(f, k, &ev);
	ev_acked(f, old, 0);

	ev_retire(f, old);
	KUNIT_EXPECT_EQ(test, e->state, MRC_EV_STATE_GOOD);
	KUNIT_EXPECT_EQ(test, e->plane, plane);
	/* The plane keeps its share: same slot, a spare of the same plane. */
	KUNIT_EXPECT_EQ(test, e->value, mrc_ev_value(plane, k, spare));
	KUNIT_EXPECT_NE(test, mrc_ev_entropy(e->value), mrc_ev_entropy(old));
	KUNIT_EXPECT_EQ(test, e->losses, 1);
	KUNIT_EXPECT_EQ(test, s->nbackup[plane], MRC_EV_BACKUP - 1);
	for (pl = 0; pl < EV_PLANES; pl++)
		if (pl != plane)
			KUNIT_EXPECT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP);
	/* The lost entropy is remembered, to be probed. */
	KUNIT_EXPECT_EQ(test, ev_retired_used(f, plane), 1);
	r = ev_retired_find(f, plane, mrc_ev_entropy(old));
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->probe_ok, 0);
	KUNIT_EXPECT_TRUE(test, timer_pending(&s->probe_timer) ||
			  atomic_read(&ev_probe_runs));
	KUNIT_EXPECT_EQ(test, ev_cnt(f, plane, MRC_CNT_EV_ASSUMED_BAD), 1);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 1);
	KUNIT_EXPECT_EQ(test, mrc_ev_count_state(f->qp, MRC_EV_STATE_GOOD),
			EV_N);

	/* The new entropy's packets start their own order. */
	KUNIT_EXPECT_EQ(test, ev_send(f, k, &ev), 0);
	KUNIT_EXPECT_EQ(test, ev, e->value);

	/* A second report of the old value is stale: nothing moves. */
	ev_retire(f, old);
	KUNIT_EXPECT_EQ(test, e->value, mrc_ev_value(plane, k, spare));
	KUNIT_EXPECT_EQ(test, e->state, MRC_EV_STATE_GOOD);
	KUNIT_EXPECT_EQ(test, e->losses, 1);
	KUNIT_EXPECT_EQ(test, s->nbackup[plane], MRC_EV_BACKUP - 1);
	KUNIT_EXPECT_EQ(test, ev_retired_used(f, plane), 1);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 1);
}

/* An EV profile's floor and backup count shape the next set, then stay. */
static void ev_install_follows_profile(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 pl, k, old;

	spin_lock_bh(&f->qp->lock);
	mrc_ev_configure(f->qp, 5, 2, MRC_EV_EVENTS_ALL, MRC_EV_FORMAT_UDP);
	spin_unlock_bh(&f->qp->lock);
	ev_install(f, 3 * EV_PLANES);
	KUNIT_ASSERT_EQ(test, s->n, 3 * EV_PLANES);
	KUNIT_EXPECT_EQ(test, s->min_active, 5);
	for (pl = 0; pl < EV_PLANES; pl++)
		KUNIT_EXPECT_EQ(test, s->nbackup[pl], 2);

	/* Two retirements on one plane use both spares, the third probes. */
	pl = s->ev[0].plane;
	for (k = 0; k < 3; k++) {
		u32 slot = k * EV_PLANES;

		KUNIT_ASSERT_EQ(test, s->ev[slot].plane, pl);
		old = s->ev[slot].value;
		ev_retire(f, old);
		KUNIT_EXPECT_EQ(test, s->ev[slot].state, k < 2 ?
				MRC_EV_STATE_GOOD : MRC_EV_STATE_ASSUMED_BAD);
		KUNIT_EXPECT_EQ(test, s->ev[slot].value != old, k < 2);
	}
	KUNIT_EXPECT_EQ(test, s->nbackup[pl], 0);

	/* A floor above the set is the set; 0 is a quarter again. */
	spin_lock_bh(&f->qp->lock);
	mrc_ev_configure(f->qp, 200, MRC_MAX_BACKUPS + 1,
			 MRC_EV_EVENTS_ALL, MRC_EV_FORMAT_UDP);
	spin_unlock_bh(&f->qp->lock);
	ev_install(f, 16);
	KUNIT_EXPECT_EQ(test, s->min_active, 16);
	KUNIT_EXPECT_EQ(test, s->nbackup[0], MRC_MAX_BACKUPS);
	spin_lock_bh(&f->qp->lock);
	mrc_ev_configure(f->qp, 0, 0, MRC_EV_EVENTS_ALL, MRC_EV_FORMAT_UDP);
	spin_unlock_bh(&f->qp->lock);
	ev_install(f, 16);
	KUNIT_EXPECT_EQ(test, s->min_active, 4);
	KUNIT_EXPECT_EQ(test, s->nbackup[0], 0);
}

/*
 * A GEN destination of 4 paths a plane (one per spine, the spine in the
 * 4th group of the outer address), none on plane @no_path.  The QP that
 * installs it takes the reference.
 */
static struct mrc_srv6_dst *ev_srv6_dst(struct kunit *test, u32 no_path)
{
	struct mrc_srv6_dst *d;
	u32 pl;

	d = mrc_srv6_dst_alloc(0);
	KUNIT_ASSERT_NOT_NULL(test, d);
	d->gen = (struct mrc_srv6_tmpl){
		.locator = 0xfc000000,
		.nusids = 4,
		.ntiers = 1,
		.plane_shift = 8,
		.usid = { 0x1001, 0x2000, 0x1002, 0x3002 },
		.tier = { { .usid = 1, .shift = 0, .count = 4 } },
	};
	for (pl = 0; pl < EV_PLANES; pl++)
		d->count[pl] = pl == no_path ? 0 : 4;
	return d;
}

/*
 * Over SRv6 a plane's slots go round its paths: with 4 spines and 18 or 19
 * slots a plane, every spine carries 4 or 5 of them, and a plane without a
 * path gets none.  The path of a slot is the one its entropy picks.
 */
static void ev_install_srv6_covers_paths(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 per[EV_PLANES][4] = {}, slots[EV_PLANES] = {};
	struct mrc_srv6_path p;
	struct mrc_srv6_dst *d;
	u32 i, pl, k, spine;
	u16 e;

	d = ev_srv6_dst(test, 3);
	ev_install_srv6(f, GENMASK(EV_PLANES - 1, 0), EV_N, d);
	KUNIT_ASSERT_EQ(test, s->n, EV_N);
	for (i = 0; i < s->n; i++) {
		pl = s->ev[i].plane;
		KUNIT_ASSERT_LT(test, pl, EV_PLANES);
		e = mrc_ev_entropy(s->ev[i].value);
		KUNIT_ASSERT_TRUE(test, mrc_srv6_dst_path(d, pl, e, &p));
		k = e % 4;
		/* locator, source T0, spine, ...: the spine is the 4th group */
		spine = ntohs(p.da.s6_addr16[3]);
		KUNIT_EXPECT_EQ(test, spine, 0x2000 | pl << 8 | k);
		per[pl][k]++;
		slots[pl]++;
	}
	KUNIT_EXPECT_EQ(test, slots[3], 0);
	for (pl = 0; pl < EV_PLANES; pl++)
		for (k = 0; pl != 3 && k < 4; k++) {
			KUNIT_EXPECT_GE(test, per[pl][k], slots[pl] / 4);
			KUNIT_EXPECT_LE(test, per[pl][k],
					DIV_ROUND_UP(slots[pl], 4));
		}
	/* A plain install drops the QP's reference (kmemleak: no leak). */
	ev_install(f, EV_N);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(s->srv6));
}

/*
 * Over SRv6 a retired slot takes the last spare that picks another path
 * than the failed entropy (entropy mod 4 here), the other spares keeping
 * their order; when every spare picks the failed path, the last one.  The
 * failed entropy, recovered, brings the slot back to its path.
 */
static void ev_retire_srv6_avoids_dead_path(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	struct mrc_srv6_dst *d = ev_srv6_dst(test, EV_PLANES);
	const u32 k = 33, j = 33 + EV_PLANES;
	u16 b[MRC_EV_BACKUP], dead, dj;
	u32 i, old, oj;
	u8 pl;

	ev_install_srv6(f, GENMASK(EV_PLANES - 1, 0), EV_N, d);
	KUNIT_ASSERT_EQ(test, s->n, EV_N);
	pl = s->ev[k].plane;
	old = s->ev[k].value;
	dead = mrc_ev_entropy(old);
	KUNIT_ASSERT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP);
	/*
	 * Spares 0-2 pick other paths, 3-7 the failed one: a blind pop
	 * would take spare 7.
	 */
	for (i = 0; i < MRC_EV_BACKUP; i++) {
		b[i] = s->backup[pl][i] & ~3;
		b[i] |= i < 3 ? (dead + 1 + i) % 4 : dead % 4;
		s->backup[pl][i] = b[i];
	}
	ev_retire(f, old);
	KUNIT_EXPECT_EQ(test, s->ev[k].state, MRC_EV_STATE_GOOD);
	KUNIT_EXPECT_EQ(test, s->ev[k].value, mrc_ev_value(pl, k, b[2]));
	KUNIT_EXPECT_NE(test, mrc_ev_entropy(s->ev[k].value) % 4, dead % 4);
	KUNIT_ASSERT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP - 1);
	for (i = 0; i < MRC_EV_BACKUP - 1; i++)
		KUNIT_EXPECT_EQ(test, s->backup[pl][i], b[i < 2 ? i : i + 1]);

	/* Now only spares on j's path are left for j: the last one. */
	oj = s->ev[j].value;
	KUNIT_ASSERT_EQ(test, s->ev[j].plane, pl);
	dj = mrc_ev_entropy(oj);
	for (i = 0; i < s->nbackup[pl]; i++)
		s->backup[pl][i] = (s->backup[pl][i] & ~3) | dj % 4;
	b[0] = s->backup[pl][s->nbackup[pl] - 1];
	ev_retire(f, oj);
	KUNIT_EXPECT_EQ(test, s->ev[j].value, mrc_ev_value(pl, j, b[0]));
	KUNIT_EXPECT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP - 2);

	/* The path works again: slot k is back on it, its spare a spare. */
	ev_recover(f, pl, dead);
	KUNIT_EXPECT_EQ(test, s->ev[k].value, old);
	KUNIT_EXPECT_EQ(test, s->backup[pl][s->nbackup[pl] - 1], b[2]);

	/* A plain install drops the QP's reference (kmemleak: no leak). */
	ev_install(f, EV_N);
}

static void ev_retire_without_spare_and_floor(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 k = 5, old = s->ev[k].value, i, good, a, b, vb;
	u8 pl = s->ev[k].plane;

	s->nbackup[pl] = 0;
	ev_retire(f, old);
	/* No spare: the slot itself is probed, on the same entropy. */
	KUNIT_EXPECT_EQ(test, s->ev[k].state, MRC_EV_STATE_ASSUMED_BAD);
	KUNIT_EXPECT_EQ(test, s->ev[k].value, old);
	KUNIT_EXPECT_EQ(test, s->nbackup[pl], 0);
	KUNIT_EXPECT_EQ(test, ev_retired_used(f, pl), 0);
	KUNIT_EXPECT_EQ(test, ev_cnt(f, pl, MRC_CNT_EV_ASSUMED_BAD), 1);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_FLOOR), 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_count_state(f->qp, MRC_EV_STATE_GOOD),
			EV_N - 1);
	/* Never picked again until a probe brings it back. */
	for (i = 0; i < 2 * EV_N; i++)
		KUNIT_ASSERT_NE(test, ev_pick_slot(f, -1), k);

	/* No spares anywhere, one GOOD slot above the floor. */
	memset(s->nbackup, 0, sizeof(s->nbackup));
	good = mrc_ev_count_state(f->qp, MRC_EV_STATE_GOOD);
	for (i = EV_N - 1; good > s->min_active + 1U; i--) {
		if (s->ev[i].state == MRC_EV_STATE_GOOD) {
			s->ev[i].state = MRC_EV_STATE_ASSUMED_BAD;
			good--;
		}
	}
	KUNIT_ASSERT_EQ(test, mrc_ev_count_state(f->qp, MRC_EV_STATE_GOOD),
			s->min_active + 1U);

	a = ev_good_slot(f, 0);
	ev_retire(f, s->ev[a].value);
	KUNIT_EXPECT_EQ(test, s->ev[a].state, MRC_EV_STATE_ASSUMED_BAD);
	KUNIT_EXPECT_EQ(test, mrc_ev_count_state(f->qp, MRC_EV_STATE_GOOD),
			s->min_active);
	KUNIT_EXPECT_EQ(test, s->ev[a].retired, 1);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 2);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_FLOOR), 0);

	/*
	 * At the floor a loss may not take another path away, and a path
	 * kept is not counted as retired either: only the floor counts it,
	 * however often it is refused.
	 */
	b = ev_good_slot(f, a + 1);
	vb = s->ev[b].value;
	for (i = 1; i <= 2; i++) {
		ev_retire(f, vb);
		KUNIT_EXPECT_EQ(test, s->ev[b].state, MRC_EV_STATE_GOOD);
		KUNIT_EXPECT_EQ(test, s->ev[b].value, vb);
		KUNIT_EXPECT_EQ(test, s->ev[b].retired, 0);
		KUNIT_EXPECT_EQ(test,
				mrc_ev_count_state(f->qp, MRC_EV_STATE_GOOD),
				s->min_active);
		KUNIT_EXPECT_EQ(test, ev_cnt(f, s->ev[b].plane,
					     MRC_CNT_EV_FLOOR), i);
		KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_FLOOR), i);
		KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 2);
	}
}

static int ev_set(struct tf *f, const struct mrc_ev_req *reqs, u32 n)
{
	int err;

	spin_lock_bh(&f->qp->lock);
	err = mrc_ev_set_states(f->qp, reqs, n, NULL);
	spin_unlock_bh(&f->qp->lock);
	return err;
}

static int ev_set_one(struct tf *f, u32 slot, u8 state)
{
	struct mrc_ev_req req = { .slot = slot, .state = state };

	return ev_set(f, &req, 1);
}

/*
 * The controller's deny and undeny: every entry is checked before any slot
 * changes, undeny needs a DENIED slot, deny of a DENIED one is a no-op, and
 * the QP always keeps one slot that is not DENIED.
 */
static void ev_set_states_checks(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	struct mrc_ev_req *reqs;
	u32 i;

	reqs = kunit_kcalloc(test, EV_N, sizeof(*reqs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, reqs);

	KUNIT_EXPECT_EQ(test, ev_set_one(f, EV_N, MRC_EV_STATE_DENIED),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, ev_set_one(f, 3, MRC_EV_STATE_GOOD), -EINVAL);
	reqs[0] = (struct mrc_ev_req){ .slot = 3, .state = MRC_EV_STATE_DENIED };
	reqs[1] = (struct mrc_ev_req){ .slot = 3, .state = MRC_EV_STATE_DENIED };
	KUNIT_EXPECT_EQ(test, ev_set(f, reqs, 2), -EINVAL);
	reqs[1].slot = EV_N + 7;
	KUNIT_EXPECT_EQ(test, ev_set(f, reqs, 2), -ERANGE);
	/* A refused request changed nothing, not even its valid entries. */
	KUNIT_EXPECT_EQ(test, mrc_ev_count_state(f->qp, MRC_EV_STATE_GOOD),
			EV_N);

	KUNIT_EXPECT_EQ(test, ev_set_one(f, 3, MRC_EV_STATE_DENIED), 0);
	KUNIT_EXPECT_EQ(test, s->ev[3].state, MRC_EV_STATE_DENIED);
	KUNIT_EXPECT_EQ(test, ev_set_one(f, 3, MRC_EV_STATE_DENIED), 0);
	KUNIT_EXPECT_EQ(test, s->ev[3].state, MRC_EV_STATE_DENIED);
	KUNIT_EXPECT_EQ(test, ev_set_one(f, 3, MRC_EV_STATE_GOOD), 0);
	KUNIT_EXPECT_EQ(test, s->ev[3].state, MRC_EV_STATE_GOOD);

	/* All but the last slot: allowed; the last one too: refused. */
	for (i = 0; i < EV_N - 1; i++)
		reqs[i] = (struct mrc_ev_req){ .slot = i,
					       .state = MRC_EV_STATE_DENIED };
	KUNIT_EXPECT_EQ(test, ev_set(f, reqs, EV_N), -EINVAL);
	KUNIT_EXPECT_EQ(test, ev_set(f, reqs, EV_N - 1), 0);
	KUNIT_EXPECT_EQ(test, mrc_ev_count_state(f->qp, MRC_EV_STATE_DENIED),
			EV_N - 1);
	KUNIT_EXPECT_EQ(test, ev_set_one(f, EV_N - 1, MRC_EV_STATE_DENIED),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, s->ev[EV_N - 1].state, MRC_EV_STATE_GOOD);
	/* A slot in another state still counts as allowed. */
	s->ev[EV_N - 1].state = MRC_EV_STATE_ASSUMED_BAD;
	KUNIT_EXPECT_EQ(test, ev_set_one(f, EV_N - 1, MRC_EV_STATE_DENIED),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, ev_set_one(f, EV_N - 1, MRC_EV_STATE_GOOD),
			-EINVAL);
	s->ev[EV_N - 1].state = MRC_EV_STATE_GOOD;
	/* Swapping the allowed slot in one request is fine. */
	reqs[0] = (struct mrc_ev_req){ .slot = EV_N - 1,
				       .state = MRC_EV_STATE_DENIED };
	reqs[1] = (struct mrc_ev_req){ .slot = 0, .state = MRC_EV_STATE_GOOD };
	KUNIT_EXPECT_EQ(test, ev_set(f, reqs, 2), 0);
	KUNIT_EXPECT_EQ(test, s->ev[0].state, MRC_EV_STATE_GOOD);
	KUNIT_EXPECT_EQ(test, s->ev[EV_N - 1].state, MRC_EV_STATE_DENIED);
	for (i = 0; i < 2 * EV_N; i++)
		KUNIT_ASSERT_EQ(test, ev_pick_slot(f, -1), 0);
}

/* Losses, congestion and probe answers never move a DENIED slot. */
static void ev_denied_stays_denied(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 k = 9, v = s->ev[k].value, i;
	u8 pl = s->ev[k].plane;
	u32 spares = s->nbackup[pl];

	KUNIT_ASSERT_EQ(test, ev_set_one(f, k, MRC_EV_STATE_DENIED), 0);
	ev_retire(f, v);
	ev_suspect(f, v, 0);
	ev_suspect(f, v, 1);
	ev_skip(f, v);
	ev_verdict(f, v, MRC_SACK_M_ALWAYS_SKIP, false);
	ev_verdict(f, v, MRC_SACK_M_NONE, true);
	ev_verdict(f, v, MRC_SACK_M_NONE, true);
	KUNIT_EXPECT_EQ(test, s->ev[k].state, MRC_EV_STATE_DENIED);
	KUNIT_EXPECT_EQ(test, s->ev[k].value, v);
	KUNIT_EXPECT_EQ(test, s->ev[k].retired, 0);
	KUNIT_EXPECT_EQ(test, s->nbackup[pl], spares);
	KUNIT_EXPECT_EQ(test, ev_retired_used(f, pl), 0);
	/* A denied slot is not GOOD for the floor either. */
	KUNIT_EXPECT_EQ(test, mrc_ev_count_state(f->qp, MRC_EV_STATE_GOOD),
			EV_N - 1);
	for (i = 0; i < 2 * EV_N; i++)
		KUNIT_ASSERT_NE(test, ev_pick_slot(f, -1), k);
	/* Undenied, it is in the rotation again. */
	KUNIT_ASSERT_EQ(test, ev_set_one(f, k, MRC_EV_STATE_GOOD), 0);
	for (i = 0; i < 2 * EV_N; i++)
		if (ev_pick_slot(f, -1) == k)
			break;
	KUNIT_EXPECT_LT(test, i, 2 * EV_N);
}

static void ev_loss_attribution(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 k = 11, j = 12, o = 13;
	u32 ev, value = s->ev[k].value, stale, i;

	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, ev_send(f, k, &ev), i);
		KUNIT_EXPECT_EQ(test, ev, value);
	}
	KUNIT_EXPECT_EQ(test, s->ev[k].tx_pkts, 4);

	/* Nothing acknowledged: nothing is known lost. */
	KUNIT_EXPECT_FALSE(test, ev_lost(f, value, 0));

	/*
	 * The third arrived.  One path keeps order, so the first is lost;
	 * the second is not yet, the one packet of margin a host's own
	 * reordering is allowed.
	 */
	ev_acked(f, value, 2);
	KUNIT_EXPECT_TRUE(test, ev_lost(f, value, 0));
	KUNIT_EXPECT_FALSE(test, ev_lost(f, value, 1));
	KUNIT_EXPECT_FALSE(test, ev_lost(f, value, 2));
	/* The fourth settles the second. */
	ev_acked(f, value, 3);
	KUNIT_EXPECT_TRUE(test, ev_lost(f, value, 1));
	/* A late acknowledgment of an earlier one takes nothing back. */
	ev_acked(f, value, 0);
	KUNIT_EXPECT_TRUE(test, ev_lost(f, value, 1));
	KUNIT_EXPECT_EQ(test, s->ev[k].acked_seq, 4);

	/* Another slot's order is its own. */
	ev_send(f, j, &ev);
	KUNIT_EXPECT_FALSE(test, ev_lost(f, s->ev[j].value, 0));

	/* A value the slot does not carry is never lost... */
	stale = mrc_ev_value(s->ev[k].plane, k, mrc_ev_entropy(value) ^ 1);
	KUNIT_EXPECT_FALSE(test, ev_lost(f, stale, 0));
	ev_acked(f, stale, 9);
	KUNIT_EXPECT_EQ(test, s->ev[k].acked_seq, 4);
	/* ... nor is one that names no slot. */
	ev = mrc_ev_untracked(s->ev[k].plane, mrc_ev_entropy(value));
	KUNIT_EXPECT_FALSE(test, ev_lost(f, ev, 0));

	/*
	 * ... but the one the last retirement replaced still answers, as its
	 * order stood: the other holes of the SACK that retired it were lost
	 * on it all the same.
	 */
	ev_retire(f, value);
	KUNIT_ASSERT_NE(test, s->ev[k].value, value);
	KUNIT_EXPECT_TRUE(test, ev_lost(f, value, 0));
	KUNIT_EXPECT_TRUE(test, ev_lost(f, value, 1));
	KUNIT_EXPECT_FALSE(test, ev_lost(f, value, 2));
	/* Late acknowledgments of it move nothing, least of all the new one. */
	ev_acked(f, value, 9);
	KUNIT_EXPECT_FALSE(test, ev_lost(f, value, 2));
	KUNIT_EXPECT_EQ(test, s->ev[k].acked_seq, 0);
	KUNIT_EXPECT_FALSE(test, ev_lost(f, s->ev[k].value, 0));
	/* The next retirement, of another slot, forgets it. */
	ev_retire(f, s->ev[o].value);
	KUNIT_EXPECT_FALSE(test, ev_lost(f, value, 0));

	/* The order is modulo 2^32. */
	s->ev[j].tx_seq = U32_MAX - 1;
	s->ev[j].acked_seq = U32_MAX - 1;
	KUNIT_EXPECT_EQ(test, ev_send(f, j, &ev), U32_MAX - 1);
	KUNIT_EXPECT_EQ(test, ev_send(f, j, &ev), U32_MAX);
	KUNIT_EXPECT_EQ(test, ev_send(f, j, &ev), 0);
	ev_acked(f, ev, 0);
	KUNIT_EXPECT_EQ(test, s->ev[j].acked_seq, 1);
	KUNIT_EXPECT_TRUE(test, ev_lost(f, ev, U32_MAX - 1));
	KUNIT_EXPECT_FALSE(test, ev_lost(f, ev, U32_MAX));
	KUNIT_EXPECT_FALSE(test, ev_lost(f, ev, 0));
}

/*
 * Each CPU queues its packets apart, and a stalled CPU holds back its
 * packets of every EV while another CPU's later ones on the same EVs
 * arrive: only an overtaking packet sent from the hole's own CPU proves
 * the hole lost, and the value a retirement replaced keeps that CPU.
 */
static void ev_loss_one_cpu(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 k = 21, o = 22;
	u32 ev, value = s->ev[k].value, i;

	for (i = 0; i < 4; i++)
		ev_send(f, k, &ev);

	/* Packets 1-3 left from CPU 1 and arrived; 0 left from CPU 0. */
	ev_acked_on(f, value, 3, 1);
	KUNIT_EXPECT_FALSE(test, ev_lost_on(f, value, 0, 0));
	KUNIT_EXPECT_TRUE(test, ev_lost_on(f, value, 0, 1));
	KUNIT_EXPECT_EQ(test, s->ev[k].acked_cpu, 1);
	/* A lower one acknowledged late changes neither order nor CPU. */
	ev_acked_on(f, value, 1, 0);
	KUNIT_EXPECT_EQ(test, s->ev[k].acked_seq, 4);
	KUNIT_EXPECT_EQ(test, s->ev[k].acked_cpu, 1);
	KUNIT_EXPECT_FALSE(test, ev_lost_on(f, value, 0, 0));

	/* Retired, the replaced value answers as it stood, CPU and all. */
	ev_retire(f, value);
	KUNIT_ASSERT_NE(test, s->ev[k].value, value);
	KUNIT_EXPECT_TRUE(test, ev_lost_on(f, value, 0, 1));
	KUNIT_EXPECT_FALSE(test, ev_lost_on(f, value, 0, 0));
	ev_retire(f, s->ev[o].value);
	KUNIT_EXPECT_FALSE(test, ev_lost_on(f, value, 0, 1));
}

/*
 * Overdue by distance alone is no proof of a loss, but twice in a row
 * with nothing heard from the path in between retires it.
 */
static void ev_suspect_twice_retires(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 k = 30;
	struct mrc_ev *e = &s->ev[k];
	u32 value = e->value, ev, seq;
	u8 pl = e->plane;

	seq = ev_send(f, k, &ev);
	ev_suspect(f, value, seq);
	KUNIT_EXPECT_EQ(test, e->value, value);
	KUNIT_EXPECT_EQ(test, e->suspect, 1);
	/* An acknowledgment on the path clears the suspicion... */
	ev_acked(f, value, 0);
	KUNIT_EXPECT_EQ(test, e->suspect, 0);
	ev_suspect(f, value, ev_send(f, k, &ev));
	KUNIT_EXPECT_EQ(test, e->value, value);
	/* ... and so does a SACK that came back over it. */
	ev_verdict(f, value, MRC_SACK_M_NONE, false);
	KUNIT_EXPECT_EQ(test, e->suspect, 0);
	ev_suspect(f, value, ev_send(f, k, &ev));
	KUNIT_EXPECT_EQ(test, e->value, value);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 0);

	/* The second in a row: retired, a spare takes the slot. */
	ev_suspect(f, value, ev_send(f, k, &ev));
	KUNIT_EXPECT_NE(test, e->value, value);
	KUNIT_EXPECT_EQ(test, e->suspect, 0);
	KUNIT_EXPECT_EQ(test, e->state, MRC_EV_STATE_GOOD);
	KUNIT_EXPECT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP - 1);
	KUNIT_EXPECT_EQ(test, ev_cnt(f, pl, MRC_CNT_EV_ASSUMED_BAD), 1);

	/* Suspicion of the old value is stale. */
	ev_suspect(f, value, 0);
	ev_suspect(f, value, 1);
	KUNIT_EXPECT_EQ(test, e->suspect, 0);
	KUNIT_EXPECT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP - 1);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 1);
}

/*
 * Packets that were in flight together when the first of them was found
 * overdue are one piece of evidence: a stalled CPU or a slow plane delays
 * them all.  Only a packet sent after that finding counts again.
 */
static void ev_suspect_one_flight_counts_once(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 k = 7;
	struct mrc_ev *e = &s->ev[k];
	u32 value = e->value, ev, seq[3], i;

	for (i = 0; i < 3; i++)
		seq[i] = ev_send(f, k, &ev);
	for (i = 0; i < 3; i++)
		ev_suspect(f, value, seq[i]);
	KUNIT_EXPECT_EQ(test, e->value, value);
	KUNIT_EXPECT_EQ(test, e->suspect, 1);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 0);

	/* The stall ends: the path is heard, the next flight starts clean. */
	ev_acked(f, value, seq[2]);
	KUNIT_EXPECT_EQ(test, e->suspect, 0);

	/* A dead path: the packet sent after the finding is overdue too. */
	seq[0] = ev_send(f, k, &ev);
	ev_suspect(f, value, seq[0]);
	seq[1] = ev_send(f, k, &ev);
	ev_suspect(f, value, seq[1]);
	KUNIT_EXPECT_NE(test, e->value, value);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ev_retire_seen.sent_after), 1);
	KUNIT_EXPECT_EQ(test, ev_cnt(f, e->plane, MRC_CNT_EV_ASSUMED_BAD), 1);
}

/*
 * Silence shorter than the longest round trip the plane showed lately is
 * queueing, not loss: a path behind a busier uplink of its plane falls far
 * behind its neighbours and is heard again when the queue drains.  Only
 * when the first overdue packet has been out longer than that does the
 * second retire the path.
 */
static void ev_suspect_waits_out_plane_rtt(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 k = 9;
	struct mrc_ev *e = &s->ev[k];
	u32 value = e->value, ev, seq;
	u64 now = ktime_get_ns();

	f->qp->req.plane_rtt_us[e->plane] = 2 * USEC_PER_SEC;
	ev_suspect_at(f, value, ev_send(f, k, &ev), now);
	ev_suspect(f, value, ev_send(f, k, &ev));
	ev_suspect(f, value, ev_send(f, k, &ev));
	KUNIT_EXPECT_EQ(test, e->value, value);
	KUNIT_EXPECT_EQ(test, e->suspect, MRC_EV_SUSPECT_MAX);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 0);

	/* Heard again: the queue drained. */
	seq = ev_send(f, k, &ev);
	ev_acked(f, value, seq);
	KUNIT_EXPECT_EQ(test, e->suspect, 0);

	/* The first overdue packet left three seconds ago: a dead path. */
	ev_suspect_at(f, value, ev_send(f, k, &ev), now - 3 * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, e->value, value);
	ev_suspect(f, value, ev_send(f, k, &ev));
	KUNIT_EXPECT_NE(test, e->value, value);
	KUNIT_EXPECT_EQ(test, ev_cnt(f, e->plane, MRC_CNT_EV_ASSUMED_BAD), 1);
}

/* A SACK acknowledging nothing new, with @flags and an echo of @ref_ev. */
static void ev_sack_ref(struct tf *f, u8 flags, u32 ref_ev, u64 ref_ts)
{
	struct mrc_hdrs h = {
		.opcode = MRC_OP_SACK,
		.dqpn = f->qp->ibqp.qp_num,
		.psn = EV_SQ_PSN,
		.sack = {
			.flags = flags,
			.cum_psn = EV_SQ_PSN,
			.sack_psn = EV_SQ_PSN,
			.ref_ev = ref_ev,
			.ref_ts = ref_ts,
			.window = MRC_WINDOW_DEFAULT,
		},
	};

	tf_sack_rcv(f, &h);
}

/* A SACK echoing a send time @age_us ago, of a packet on @ev. */
static void ev_sack_echo(struct tf *f, u32 ev, u32 age_us)
{
	ev_sack_ref(f, MRC_SACK_F_TS_VALID, ev,
		    mrc_req_stamp(f->qp, ktime_get_ns() -
					 (u64)age_us * NSEC_PER_USEC));
}

/*
 * The plane's longest round trip: a longer sample takes over at once, a
 * shorter one pulls it down by 1/64 of the gap; other planes keep theirs.
 */
static void ev_sack_plane_rtt_tracks_longest(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_ev *e = &f->qp->evs->ev[5];
	u32 *rtt = f->qp->req.plane_rtt_us, m, i;
	u8 pl = e->plane;
	u64 t0;

	ev_sack_echo(f, e->value, 1000);
	KUNIT_EXPECT_GE(test, rtt[pl], 1000);
	t0 = ktime_get_ns();
	ev_sack_echo(f, e->value, 80000);
	m = rtt[pl];
	KUNIT_EXPECT_GE(test, m, 80000);
	/*
	 * The sample is what the echo said plus the time the echo took to be
	 * handled, which a loaded TCG host stretches past any fixed margin:
	 * the bound is that time, measured here.
	 */
	KUNIT_EXPECT_LE(test, m,
			80000 + div_u64(ktime_get_ns() - t0, NSEC_PER_USEC) + 1);
	ev_sack_echo(f, e->value, 1000);
	KUNIT_EXPECT_LT(test, rtt[pl], m);
	KUNIT_EXPECT_GE(test, rtt[pl], m - (m - 1000) / 64);
	for (i = 0; i < MRC_MAX_PLANES; i++)
		if (i != pl)
			KUNIT_EXPECT_EQ(test, rtt[i], 0);
}

/*
 * What a path was given between its first loss signal and its retirement
 * is the benchmark's "sprayed onto a dead EV" figure: counted from the
 * first overdue packet; nothing when the signal itself retires the path.
 */
static void ev_retire_counts_sent_after_signal(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 k = 12;
	struct mrc_ev *e = &s->ev[k];
	u32 value = e->value, ev, i, first;

	first = ev_send(f, k, &ev);
	for (i = 0; i < 3; i++)
		ev_send(f, k, &ev);
	KUNIT_EXPECT_EQ(test, ev, value);
	ev_suspect(f, value, first);
	first = ev_send(f, k, &ev);
	for (i = 0; i < 2; i++)
		ev_send(f, k, &ev);
	ev_suspect(f, value, first);
	KUNIT_EXPECT_NE(test, e->value, value);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ev_retire_seen.sent_after), 3);

	/* A suspicion cleared by news from the path starts the count again. */
	value = e->value;
	ev_suspect(f, value, ev_send(f, k, &ev));
	ev_acked(f, value, 0);
	ev_suspect(f, value, ev_send(f, k, &ev));
	first = ev_send(f, k, &ev);
	ev_send(f, k, &ev);
	ev_suspect(f, value, first);
	KUNIT_EXPECT_NE(test, e->value, value);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ev_retire_seen.sent_after), 2);

	/* A later packet on the path acknowledged: retired at the signal. */
	value = e->value;
	for (i = 0; i < 5; i++)
		ev_send(f, k, &ev);
	ev_retire(f, value);
	KUNIT_EXPECT_NE(test, e->value, value);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ev_retire_seen.sent_after), 0);
}

static void ev_skip_sits_out_one_turn(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 k = 90, bad = 91;
	u32 i, slot, hits = 0, rot;
	u8 pl = s->ev[k].plane;

	ev_skip(f, s->ev[k].value);
	KUNIT_EXPECT_EQ(test, s->ev[k].state, MRC_EV_STATE_SKIP);
	KUNIT_EXPECT_EQ(test, s->ev[k].ecn, 1);
	KUNIT_EXPECT_EQ(test, ev_cnt(f, pl, MRC_CNT_EV_SKIPS), 1);

	/* Skipped at the start of rotation 0: none of its picks. */
	for (i = 0; i < EV_N - 1; i++) {
		slot = ev_pick_slot(f, -1);
		KUNIT_ASSERT_NE(test, slot, k);
	}
	KUNIT_EXPECT_EQ(test, s->rotation, 0);

	/* Its turn is over: rotation 1 takes it once, GOOD again. */
	for (i = 0; i < EV_N; i++)
		hits += ev_pick_slot(f, -1) == k;
	KUNIT_EXPECT_EQ(test, hits, 1);
	KUNIT_EXPECT_EQ(test, s->rotation, 1);
	KUNIT_EXPECT_EQ(test, s->ev[k].state, MRC_EV_STATE_GOOD);

	/*
	 * Skipped after its turn in this rotation: it sits out the next
	 * rotation's turn and comes back in the one after.
	 */
	while (ev_pick_slot(f, -1) != k)
		KUNIT_ASSERT_LT(test, s->rotation, 3);
	rot = s->rotation;
	ev_skip(f, s->ev[k].value);
	while (ev_pick_slot(f, -1) != k)
		KUNIT_ASSERT_LT(test, s->rotation, rot + 3);
	KUNIT_EXPECT_EQ(test, s->rotation, rot + 2);
	KUNIT_EXPECT_EQ(test, ev_cnt(f, pl, MRC_CNT_EV_SKIPS), 2);

	/* Congestion on a path already given up changes nothing. */
	s->ev[bad].state = MRC_EV_STATE_ASSUMED_BAD;
	ev_skip(f, s->ev[bad].value);
	KUNIT_EXPECT_EQ(test, s->ev[bad].state, MRC_EV_STATE_ASSUMED_BAD);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_SKIPS), 2);
}

static void ev_probe_answers_recover(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 k = 20, j = 21;
	u32 value = s->ev[k].value, old, answer;
	u8 pl = s->ev[k].plane, pj = s->ev[j].plane;
	u16 lost, repl;

	s->nbackup[pl] = 0;
	ev_retire(f, value);
	KUNIT_ASSERT_EQ(test, s->ev[k].state, MRC_EV_STATE_ASSUMED_BAD);

	/* One answer is not enough. */
	ev_verdict(f, value, MRC_SACK_M_NONE, true);
	KUNIT_EXPECT_EQ(test, s->ev[k].state, MRC_EV_STATE_ASSUMED_BAD);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_RECOVERED), 0);
	ev_verdict(f, value, MRC_SACK_M_NONE, true);
	KUNIT_EXPECT_EQ(test, s->ev[k].state, MRC_EV_STATE_GOOD);
	KUNIT_EXPECT_EQ(test, s->ev[k].value, value);
	KUNIT_EXPECT_EQ(test, ev_cnt(f, pl, MRC_CNT_EV_RECOVERED), 1);
	/* A late answer for a GOOD slot counts nothing. */
	ev_verdict(f, value, MRC_SACK_M_NONE, true);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_RECOVERED), 1);

	/*
	 * A retired entropy that answers takes its slot back, and the spare
	 * that stood in for it is a spare again.
	 */
	old = s->ev[j].value;
	lost = mrc_ev_entropy(old);
	ev_retire(f, old);
	repl = mrc_ev_entropy(s->ev[j].value);
	KUNIT_ASSERT_NE(test, repl, lost);
	KUNIT_ASSERT_EQ(test, s->nbackup[pj], MRC_EV_BACKUP - 1);
	KUNIT_ASSERT_NOT_NULL(test, ev_retired_find(f, pj, lost));
	answer = mrc_ev_untracked(pj, lost);
	ev_verdict(f, answer, MRC_SACK_M_NONE, true);
	KUNIT_EXPECT_NOT_NULL(test, ev_retired_find(f, pj, lost));
	KUNIT_EXPECT_EQ(test, s->ev[j].value, mrc_ev_value(pj, j, repl));
	KUNIT_EXPECT_EQ(test, s->nbackup[pj], MRC_EV_BACKUP - 1);
	ev_verdict(f, answer, MRC_SACK_M_NONE, true);
	KUNIT_EXPECT_NULL(test, ev_retired_find(f, pj, lost));
	KUNIT_EXPECT_EQ(test, ev_retired_used(f, pj), 0);
	KUNIT_EXPECT_EQ(test, s->ev[j].value, old);
	KUNIT_EXPECT_EQ(test, s->ev[j].state, MRC_EV_STATE_GOOD);
	KUNIT_ASSERT_EQ(test, s->nbackup[pj], MRC_EV_BACKUP);
	KUNIT_EXPECT_EQ(test, s->backup[pj][MRC_EV_BACKUP - 1], repl);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_RECOVERED), 2);
	KUNIT_EXPECT_EQ(test, mrc_ev_count_state(f->qp, MRC_EV_STATE_GOOD),
			EV_N);

	/* An answer for an entropy nobody retired changes nothing. */
	ev_verdict(f, mrc_ev_untracked(pj, lost ^ 1),
		   MRC_SACK_M_NONE, true);
	ev_verdict(f, mrc_ev_untracked(pj, lost ^ 1),
		   MRC_SACK_M_NONE, true);
	KUNIT_EXPECT_EQ(test, s->nbackup[pj], MRC_EV_BACKUP);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_RECOVERED), 2);
}

/*
 * The entropy that goes home resumes its value's own order: a late
 * acknowledgment of one of its old packets cannot make a new packet look
 * overtaken, while a new packet acknowledged proves an old hole lost (one
 * value, one path).  The replaced value is then unknown: stale.
 */
static void ev_home_resumes_order(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 k = 50;
	struct mrc_ev *e = &s->ev[k];
	u32 old = e->value, repl, ev, seq, i;
	u8 pl = e->plane;

	for (i = 0; i < 8; i++)
		ev_send(f, k, &ev);
	ev_acked(f, old, 0);
	ev_retire(f, old);
	repl = e->value;
	KUNIT_ASSERT_NE(test, repl, old);
	ev_send(f, k, &ev);
	KUNIT_ASSERT_EQ(test, ev, repl);

	ev_recover(f, pl, mrc_ev_entropy(old));
	KUNIT_ASSERT_EQ(test, e->value, old);
	KUNIT_EXPECT_EQ(test, e->tx_seq, 8);
	KUNIT_EXPECT_EQ(test, e->acked_seq, 1);
	seq = ev_send(f, k, &ev);
	KUNIT_EXPECT_EQ(test, ev, old);
	KUNIT_EXPECT_EQ(test, seq, 8);
	/* Old packet 7 is acknowledged late: new packet 8 is not lost. */
	ev_acked(f, old, 7);
	KUNIT_EXPECT_EQ(test, e->acked_seq, 8);
	KUNIT_EXPECT_FALSE(test, ev_lost(f, old, seq));
	/* New packet 8 arrived after old packet 5 on their path: 5 is lost. */
	ev_acked(f, old, seq);
	KUNIT_EXPECT_TRUE(test, ev_lost(f, old, 5));

	/* The replaced value is stale: nothing judges or retires by it. */
	KUNIT_EXPECT_FALSE(test, ev_lost(f, repl, 0));
	ev_retire(f, repl);
	KUNIT_EXPECT_EQ(test, e->value, old);
	KUNIT_EXPECT_EQ(test, e->state, MRC_EV_STATE_GOOD);
	KUNIT_EXPECT_EQ(test, s->backup[pl][s->nbackup[pl] - 1],
			mrc_ev_entropy(repl));
}

/*
 * A recovered entropy whose slot the controller denied, or whose slot is
 * ASSUMED_BAD, becomes a spare: the slot keeps its value and state.
 */
static void ev_home_denied_or_bad(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 k = 60, j = 60 + EV_PLANES;
	u32 ok = s->ev[k].value, oj = s->ev[j].value, vk, vj;
	u8 pl = s->ev[k].plane;

	KUNIT_ASSERT_EQ(test, s->ev[j].plane, pl);
	ev_retire(f, ok);
	ev_retire(f, oj);
	vk = s->ev[k].value;
	vj = s->ev[j].value;
	KUNIT_ASSERT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP - 2);
	KUNIT_ASSERT_EQ(test, ev_set_one(f, k, MRC_EV_STATE_DENIED), 0);
	s->ev[j].state = MRC_EV_STATE_ASSUMED_BAD;

	ev_recover(f, pl, mrc_ev_entropy(ok));
	KUNIT_EXPECT_EQ(test, s->ev[k].value, vk);
	KUNIT_EXPECT_EQ(test, s->ev[k].state, MRC_EV_STATE_DENIED);
	KUNIT_ASSERT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP - 1);
	KUNIT_EXPECT_EQ(test, s->backup[pl][MRC_EV_BACKUP - 2],
			mrc_ev_entropy(ok));

	ev_recover(f, pl, mrc_ev_entropy(oj));
	KUNIT_EXPECT_EQ(test, s->ev[j].value, vj);
	KUNIT_EXPECT_EQ(test, s->ev[j].state, MRC_EV_STATE_ASSUMED_BAD);
	KUNIT_ASSERT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP);
	KUNIT_EXPECT_EQ(test, s->backup[pl][MRC_EV_BACKUP - 1],
			mrc_ev_entropy(oj));
	KUNIT_EXPECT_EQ(test, ev_retired_used(f, pl), 0);
	KUNIT_EXPECT_EQ(test, ev_cnt(f, pl, MRC_CNT_EV_RECOVERED), 2);
}

/*
 * A slot whose replacement fails too: the original entropy keeps the
 * claim on the slot, the failed replacement comes back as a spare.
 */
static void ev_home_one_claim(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 k = 70;
	struct mrc_ev *e = &s->ev[k];
	struct mrc_ev_spare *ra, *rb;
	u32 a = e->value, b, c;
	u8 pl = e->plane;

	ev_retire(f, a);
	b = e->value;
	ev_retire(f, b);
	c = e->value;
	KUNIT_ASSERT_EQ(test, ev_retired_used(f, pl), 2);
	ra = ev_retired_find(f, pl, mrc_ev_entropy(a));
	rb = ev_retired_find(f, pl, mrc_ev_entropy(b));
	KUNIT_ASSERT_NOT_NULL(test, ra);
	KUNIT_ASSERT_NOT_NULL(test, rb);
	KUNIT_EXPECT_EQ(test, ra->home, k);
	KUNIT_EXPECT_EQ(test, rb->home, MRC_EV_NO_HOME);

	ev_recover(f, pl, mrc_ev_entropy(b));
	KUNIT_EXPECT_EQ(test, e->value, c);
	KUNIT_EXPECT_EQ(test, s->backup[pl][s->nbackup[pl] - 1],
			mrc_ev_entropy(b));
	ev_recover(f, pl, mrc_ev_entropy(a));
	KUNIT_EXPECT_EQ(test, e->value, a);
	KUNIT_EXPECT_EQ(test, s->backup[pl][s->nbackup[pl] - 1],
			mrc_ev_entropy(c));
	KUNIT_EXPECT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP);
	KUNIT_EXPECT_EQ(test, ev_retired_used(f, pl), 0);
}

static void ev_verdict_dispatch(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 a = 40, b = 41, c = 42;
	u32 vb = s->ev[b].value;
	u8 pb = s->ev[b].plane;

	/* A CE mark on the SACKed packet: skip that path for a rotation. */
	ev_verdict(f, s->ev[a].value, MRC_SACK_M_SKIP_ONCE, false);
	KUNIT_EXPECT_EQ(test, s->ev[a].state, MRC_EV_STATE_SKIP);

	/* The receiver asks to stop using the path: retired. */
	ev_verdict(f, vb, MRC_SACK_M_ALWAYS_SKIP, false);
	KUNIT_EXPECT_NE(test, s->ev[b].value, vb);
	KUNIT_EXPECT_EQ(test, s->nbackup[pb], MRC_EV_BACKUP - 1);
	KUNIT_EXPECT_NOT_NULL(test, ev_retired_find(f, pb,
						    mrc_ev_entropy(vb)));

	/* Only a probe's answer counts towards recovery, not a data SACK. */
	s->ev[c].state = MRC_EV_STATE_ASSUMED_BAD;
	ev_verdict(f, s->ev[c].value, MRC_SACK_M_NONE, false);
	ev_verdict(f, s->ev[c].value, MRC_SACK_M_NONE, false);
	KUNIT_EXPECT_EQ(test, s->ev[c].state, MRC_EV_STATE_ASSUMED_BAD);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_RECOVERED), 0);
}

static void ev_sack(struct tf *f, u32 cum, u64 bitmap)
{
	tf_sack(f, cum, 0, cum, bitmap);
}

/*
 * A SACK with cum_psn EV_SQ_PSN whose bitmap starts @from PSNs past it, as
 * the responder sends once arrivals run 64 or more past cum_psn.
 */
static void ev_sack_from(struct tf *f, u32 from, u64 bitmap)
{
	struct mrc_hdrs h = {
		.opcode = MRC_OP_SACK,
		.dqpn = f->qp->ibqp.qp_num,
		.psn = EV_SQ_PSN,
		.sack = {
			.cum_psn = EV_SQ_PSN,
			.sack_psn = EV_SQ_PSN + from,
			.bitmap = bitmap,
			.window = MRC_WINDOW_DEFAULT,
		},
	};

	tf_sack_rcv(f, &h);
}

/* The peer's answer to a probe: a SACK with the probe flag and its echo. */
static void ev_probe_answer(struct tf *f, u32 ref_ev, u64 token)
{
	ev_sack_ref(f, MRC_SACK_F_PROBE, ref_ev, token);
}

static int ev_probe_start(struct tf *f, u32 slot, struct mrc_ev_probe_wait *w)
{
	int err;

	spin_lock_bh(&f->qp->lock);
	err = mrc_ev_probe_start(f->qp, slot, w, &f->out);
	spin_unlock_bh(&f->qp->lock);
	return err;
}

/*
 * The controller's probe (MRC_CMD_PROBE): one PROBE packet on the slot's
 * EV, completed only by the answer echoing both its token and that EV, one
 * at a time per QP, and completed with -ENOENT when the QP goes away.
 */
static void ev_controller_probe(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	struct mrc_ev_probe_wait *w, *w2;
	struct mrc_hdrs h;

	w = mrc_ev_probe_wait_new();
	w2 = mrc_ev_probe_wait_new();
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, w2);
	KUNIT_ASSERT_EQ(test, ev_probe_start(f, 3, w), 0);
	tf_pop(f, &h);
	KUNIT_EXPECT_EQ(test, h.opcode, MRC_OP_PROBE);
	KUNIT_EXPECT_EQ(test, h.ev, s->ev[3].value);
	KUNIT_EXPECT_EQ(test, h.probe.token, w->token);
	KUNIT_EXPECT_TRUE(test, mrc_req_stamp(f->qp, w->token) & BIT_ULL(63));
	KUNIT_EXPECT_EQ(test, w->value, s->ev[3].value);
	KUNIT_EXPECT_EQ(test, ev_probe_start(f, 4, w2), -EBUSY);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);

	/* Another EV's echo, another token, a background probe's: ignored. */
	ev_probe_answer(f, s->ev[4].value, w->token);
	ev_probe_answer(f, w->value, w->token ^ 1);
	ev_probe_answer(f, w->value, w->token ^ BIT_ULL(63));
	KUNIT_EXPECT_FALSE(test, completion_done(&w->done));
	KUNIT_EXPECT_PTR_EQ(test, s->waiter, w);

	ev_probe_answer(f, w->value, w->token);
	KUNIT_EXPECT_TRUE(test, completion_done(&w->done));
	KUNIT_EXPECT_EQ(test, w->err, 0);
	KUNIT_EXPECT_PTR_EQ(test, s->waiter, NULL);
	/* The clock of the token: an answer takes time. */
	KUNIT_EXPECT_LT(test, w->rtt_ns, 10ULL * NSEC_PER_SEC);

	/* A QP going away completes the waiter with -ENOENT. */
	KUNIT_ASSERT_EQ(test, ev_probe_start(f, 4, w2), 0);
	tf_pop(f, &h);
	spin_lock_bh(&f->qp->lock);
	mrc_ev_probe_forget(f->qp, w, 0);	/* not the waiter: no effect */
	KUNIT_EXPECT_PTR_EQ(test, s->waiter, w2);
	mrc_ev_probe_forget(f->qp, NULL, -ENOENT);
	spin_unlock_bh(&f->qp->lock);
	KUNIT_EXPECT_TRUE(test, completion_done(&w2->done));
	KUNIT_EXPECT_EQ(test, w2->err, -ENOENT);
	KUNIT_EXPECT_PTR_EQ(test, s->waiter, NULL);

	/* Only active slots of a connected QP. */
	KUNIT_EXPECT_EQ(test, ev_probe_start(f, s->n, w2), -EINVAL);
	f->qp->state = IB_QPS_RTR;
	KUNIT_EXPECT_EQ(test, ev_probe_start(f, 0, w2), -EINVAL);
	f->qp->state = IB_QPS_RTS;
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	/* Only the test's references are left. */
	KUNIT_EXPECT_EQ(test, refcount_read(&w->ref), 1U);
	KUNIT_EXPECT_EQ(test, refcount_read(&w2->ref), 1U);
	mrc_ev_probe_wait_put(w);
	mrc_ev_probe_wait_put(w2);
}

/*
 * A controller that stops waiting without the QP forgetting its waiter
 * (its device left the registry first): the QP's reference keeps the
 * waiter alive for the late answer, or for the QP's end, which frees it.
 * Under KASAN a waiter on the controller's stack was a use after free.
 */
static void ev_controller_gone_before_answer(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	struct mrc_ev_probe_wait *w;
	struct mrc_hdrs h;
	u32 value;
	u64 token;

	w = mrc_ev_probe_wait_new();
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_EQ(test, ev_probe_start(f, 2, w), 0);
	tf_pop(f, &h);
	KUNIT_EXPECT_EQ(test, refcount_read(&w->ref), 2U);
	value = w->value;
	token = w->token;
	mrc_ev_probe_wait_put(w);		/* the controller leaves */
	ev_probe_answer(f, value, token);	/* frees it */
	KUNIT_EXPECT_PTR_EQ(test, s->waiter, NULL);

	w = mrc_ev_probe_wait_new();
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_EQ(test, ev_probe_start(f, 2, w), 0);
	tf_pop(f, &h);
	mrc_ev_probe_wait_put(w);
	spin_lock_bh(&f->qp->lock);
	mrc_ev_probe_forget(f->qp, NULL, -ENOENT);	/* the QP's end */
	spin_unlock_bh(&f->qp->lock);
	KUNIT_EXPECT_PTR_EQ(test, s->waiter, NULL);
}

/*
 * A forged PROBE sent to the peer gets a genuine answer that carries the
 * forger's token.  Tokens are this QP's stamps (mrc_req_stamp()): an
 * answer whose token decodes to no time of the last seconds is rejected
 * before it reaches the EV verdicts or the controller's waiter, however
 * plausible it looks in clear (a plain time of now, zero, random bits).
 */
static void ev_forged_probe_answer_rejected(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	struct mrc_ev_probe_wait *w;
	u64 now = ktime_get_ns();
	u64 forged[] = { now, now - NSEC_PER_MSEC, 0, 0x0123456789abcdefULL,
			 mrc_req_stamp(f->qp, now - 61 * NSEC_PER_SEC),
			 mrc_req_stamp(f->qp, now + NSEC_PER_SEC) };
	struct mrc_hdrs h;
	u64 rejected;
	unsigned int i;

	w = mrc_ev_probe_wait_new();
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_EQ(test, ev_probe_start(f, 1, w), 0);
	tf_pop(f, &h);
	KUNIT_EXPECT_TRUE(test, mrc_req_token_ok(f->qp, h.probe.token,
						 ktime_get_ns()));
	rejected = tf_count(f, MRC_CNT_RX_ACK_REJECTED);
	for (i = 0; i < ARRAY_SIZE(forged); i++)
		ev_probe_answer(f, w->value, forged[i]);
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_ACK_REJECTED),
			rejected + ARRAY_SIZE(forged));
	KUNIT_EXPECT_FALSE(test, completion_done(&w->done));
	KUNIT_EXPECT_PTR_EQ(test, s->waiter, w);
	/*
	 * A controller may wait a minute for its answer; a timestamp's echo
	 * counts for 10 s, and bit 63 (the controller's mark) is no time.
	 */
	KUNIT_EXPECT_TRUE(test, mrc_req_token_ok(f->qp, mrc_req_stamp(f->qp, now),
						 now + 59 * NSEC_PER_SEC));
	KUNIT_EXPECT_FALSE(test, mrc_req_echo_ok(f->qp, mrc_req_stamp(f->qp, now),
						 now + 11 * NSEC_PER_SEC));
	KUNIT_EXPECT_FALSE(test, mrc_req_echo_ok(f->qp,
						 mrc_req_stamp(f->qp, BIT_ULL(63) | now),
						 now + NSEC_PER_SEC));
	/* The real answer still counts. */
	ev_probe_answer(f, w->value, h.probe.token);
	KUNIT_EXPECT_TRUE(test, completion_done(&w->done));
	KUNIT_EXPECT_EQ(test, tf_count(f, MRC_CNT_RX_ACK_REJECTED),
			rejected + ARRAY_SIZE(forged));
	mrc_ev_probe_wait_put(w);
}

/* Packets of one WRITE the spray posts: the fixture's MR holds 63. */
#define EV_SPRAY_WR	48

/*
 * The WRITEs of the end-to-end cases: @rot rotations of @nev EVs, as many
 * on every plane of @mask.
 */
static void ev_spray_n(struct tf *f, u32 mask, u32 nev, u32 rot, u32 *ev_of)
{
	struct kunit *test = f->test;
	struct mrc_evset *s = f->qp->evs;
	u32 i, j, slot, n = rot * nev;
	struct mrc_hdrs h;

	ev_install_mask(f, mask, nev);
	KUNIT_ASSERT_EQ(test, s->n, nev);
	for (i = 0; i < n; i += EV_SPRAY_WR)
		tf_post_write(f, EV_REMOTE_VA + i * TF_MTU, EV_REMOTE_RKEY, 1,
			      0, min_t(u32, n - i, EV_SPRAY_WR) * TF_MTU);
	tf_req_run(f);
	for (i = 0; i < n; i++) {
		tf_pop(f, &h);
		KUNIT_ASSERT_EQ(test, h.psn, EV_SQ_PSN + i);
		KUNIT_ASSERT_EQ(test, h.flags & MRC_BTH_F_RTX, 0);
		ev_of[i] = h.ev;
		/* Every packet leaves on a slot's current value. */
		slot = mrc_ev_slot(h.ev);
		KUNIT_ASSERT_LT(test, slot, nev);
		KUNIT_ASSERT_EQ(test, s->ev[slot].value, h.ev);
		KUNIT_ASSERT_TRUE(test, mask & BIT(mrc_ev_plane(h.ev)));
	}
	KUNIT_ASSERT_EQ(test, skb_queue_len(&f->out), 0U);
	/* The first rotation takes every EV once. */
	for (i = 0; i < nev; i++)
		for (j = 0; j < i; j++)
			KUNIT_ASSERT_NE(test, ev_of[i], ev_of[j]);
}

/* The same with one EV on each of the eight planes. */
static void ev_spray(struct tf *f, u32 rot, u32 *ev_of)
{
	ev_spray_n(f, GENMASK(EV_PLANES - 1, 0), EV_PLANES, rot, ev_of);
}

/* Index of the @nth packet (from 0) in @ev_of[0, @n) that carried @ev. */
static u32 ev_nth_on(struct tf *f, const u32 *ev_of, u32 n, u32 ev, u32 nth)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (ev_of[i] == ev && !nth--)
			return i;
	KUNIT_ASSERT_FAILURE(f->test, "EV %#x carried fewer packets", ev);
	return 0;
}

#define EV_E2E_ROT	3

/*
 * The data path end to end: one EV per plane, a WRITE of three rotations'
 * worth of packets.  A SACK that carries the third packet of the first
 * packet's EV, and neither of the two before it, says that path dropped
 * the first (the second may still be reordered by the host): the EV must
 * be retired before mrc_comp_sack_rcv() returns, and the first packet must
 * go again on another plane.
 */
static void ev_sack_retires_lost_path(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 ev_of[EV_E2E_ROT * EV_PLANES], third, old, slot;
	struct mrc_hdrs h;
	u8 pl;

	ev_spray(f, EV_E2E_ROT, ev_of);
	old = ev_of[0];
	slot = mrc_ev_slot(old);
	pl = mrc_ev_plane(old);
	third = ev_nth_on(f, ev_of, ARRAY_SIZE(ev_of), old, 2);

	ev_sack(f, EV_SQ_PSN, BIT_ULL(third));

	/* Retired in the call: the slot carries a spare of the same plane. */
	KUNIT_EXPECT_NE(test, s->ev[slot].value, old);
	KUNIT_EXPECT_EQ(test, mrc_ev_plane(s->ev[slot].value), pl);
	KUNIT_EXPECT_EQ(test, mrc_ev_slot(s->ev[slot].value), slot);
	KUNIT_EXPECT_EQ(test, s->ev[slot].state, MRC_EV_STATE_GOOD);
	KUNIT_EXPECT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP - 1);
	KUNIT_EXPECT_NOT_NULL(test, ev_retired_find(f, pl,
						    mrc_ev_entropy(old)));
	KUNIT_EXPECT_EQ(test, ev_cnt(f, pl, MRC_CNT_EV_ASSUMED_BAD), 1);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 1);

	/* The lost packet, and only it, went again, off the losing plane. */
	tf_pop(f, &h);
	KUNIT_EXPECT_EQ(test, h.psn, EV_SQ_PSN);
	KUNIT_EXPECT_TRUE(test, h.flags & MRC_BTH_F_RTX);
	KUNIT_EXPECT_NE(test, mrc_ev_plane(h.ev), pl);
	KUNIT_EXPECT_EQ(test, s->ev[mrc_ev_slot(h.ev)].value, h.ev);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 1);
	KUNIT_EXPECT_EQ(test, f->qp->req.psn_una, EV_SQ_PSN);
}

#define EV_TWO_ROT	4

/*
 * Two holes on one EV in one SACK: the EV's first and second packets are
 * missing, its fourth arrived (its third may still be reordered by the
 * host).  Both are lost, and both within MRC_REORDER_THRESH of the highest
 * PSN, so only the EV's order says so.  The first hole retires the EV; the
 * second still carries the value the slot just gave up, and must go again
 * too, without retiring the slot's new entropy.
 */
static void ev_sack_two_holes_one_path(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 ev_of[EV_TWO_ROT * EV_PLANES], hole[3], old, slot, high = 0, i;
	u64 bitmap = 0, bad;
	struct mrc_hdrs h;
	u16 spare;
	u8 pl;

	ev_spray(f, EV_TWO_ROT, ev_of);
	old = ev_of[0];
	slot = mrc_ev_slot(old);
	pl = mrc_ev_plane(old);
	spare = s->backup[pl][MRC_EV_BACKUP - 1];
	for (i = 0; i < ARRAY_SIZE(hole); i++)
		hole[i] = ev_nth_on(f, ev_of, ARRAY_SIZE(ev_of), old, i);
	for (i = 0; i < ARRAY_SIZE(ev_of); i++) {
		if (i != hole[0] && i != hole[1] && i != hole[2]) {
			bitmap |= BIT_ULL(i);
			high = i;
		}
	}
	KUNIT_ASSERT_GT(test, high, hole[2]);
	KUNIT_ASSERT_LT(test, high - hole[0], MRC_REORDER_THRESH);
	bad = tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD);

	ev_sack(f, EV_SQ_PSN, bitmap);

	/* Retired once: one spare of its plane taken, not two. */
	KUNIT_EXPECT_EQ(test, s->ev[slot].value,
			mrc_ev_value(pl, slot, spare));
	KUNIT_EXPECT_EQ(test, s->ev[slot].state, MRC_EV_STATE_GOOD);
	KUNIT_EXPECT_EQ(test, s->ev[slot].retired, 1);
	KUNIT_EXPECT_EQ(test, s->nbackup[pl], MRC_EV_BACKUP - 1);
	KUNIT_EXPECT_EQ(test, ev_retired_used(f, pl), 1);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD) - bad, 1);

	/* Both lost packets went again, off the losing plane; the third not. */
	for (i = 0; i < 2; i++) {
		tf_pop(f, &h);
		KUNIT_EXPECT_EQ(test, h.psn, EV_SQ_PSN + hole[i]);
		KUNIT_EXPECT_TRUE(test, h.flags & MRC_BTH_F_RTX);
		KUNIT_EXPECT_NE(test, mrc_ev_plane(h.ev), pl);
		KUNIT_EXPECT_EQ(test, s->ev[mrc_ev_slot(h.ev)].value, h.ev);
	}
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 2);
	KUNIT_EXPECT_EQ(test, f->qp->req.psn_una, EV_SQ_PSN);
}

#define EV_DEAD_ROT	6
#define EV_DEAD_N	8	/* two on each of four planes */

/*
 * Spray EV_DEAD_ROT rotations over two EVs on each of four planes; the
 * first packet's EV is dead.  Sets @bitmap to every other packet (a SACK
 * from EV_SQ_PSN says they arrived) and @overdue to the dead EV's packets
 * MRC_REORDER_THRESH or more below the highest of its plane's; returns
 * how many those are.
 */
static u32 ev_dead_spray(struct tf *f, u32 *ev_of, u64 *bitmap, u32 *overdue)
{
	const u32 n_all = EV_DEAD_ROT * EV_DEAD_N;
	u32 dead, high = 0, i, n = 0;
	u8 pl;

	BUILD_BUG_ON(EV_DEAD_ROT * EV_DEAD_N > EV_SPRAY_WR);
	ev_spray_n(f, GENMASK(3, 0), EV_DEAD_N, EV_DEAD_ROT, ev_of);
	dead = ev_of[0];
	pl = mrc_ev_plane(dead);
	*bitmap = 0;
	for (i = 0; i < n_all; i++) {
		if (ev_of[i] != dead) {
			*bitmap |= BIT_ULL(i);
			if (mrc_ev_plane(ev_of[i]) == pl)
				high = i;
		}
	}
	for (i = 0; i < n_all; i++)
		if (ev_of[i] == dead && high > i &&
		    high - i >= MRC_REORDER_THRESH)
			overdue[n++] = i;
	return n;
}

/*
 * A path that delivers nothing never has a later packet of its own
 * acknowledged, so only distance can tell: two EVs on each of four planes,
 * and every packet but those of one EV arrives.  The dead EV is the first
 * of the rotation, its plane's other EV later in each, so of its six
 * packets the first two lie MRC_REORDER_THRESH or more below the highest
 * SACKed PSN of their plane.  The first makes it suspect; the second, in
 * flight with the first, is resent but proves nothing more (a stall would
 * delay both).  The first packet sprayed onto it after that finding,
 * overdue in turn, retires it.
 */
static void ev_sack_dead_path_retired_by_suspicion(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 n_all = EV_DEAD_ROT * EV_DEAD_N;
	u32 ev_of[EV_DEAD_ROT * EV_DEAD_N], dead, slot, i;
	u32 overdue[EV_DEAD_ROT], n, n_new = 0;
	struct mrc_hdrs h;
	u64 bitmap;
	u8 pl;

	n = ev_dead_spray(f, ev_of, &bitmap, overdue);
	KUNIT_ASSERT_EQ(test, n, MRC_EV_SUSPECT_MAX);
	dead = ev_of[0];
	slot = mrc_ev_slot(dead);
	pl = mrc_ev_plane(dead);

	ev_sack(f, EV_SQ_PSN, bitmap);

	KUNIT_EXPECT_EQ(test, s->ev[slot].value, dead);
	KUNIT_EXPECT_EQ(test, s->ev[slot].suspect, 1);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 0);
	for (i = 0; i < n; i++) {
		tf_pop(f, &h);
		KUNIT_EXPECT_EQ(test, h.psn, EV_SQ_PSN + overdue[i]);
		KUNIT_EXPECT_TRUE(test, h.flags & MRC_BTH_F_RTX);
		KUNIT_EXPECT_NE(test, mrc_ev_plane(h.ev), pl);
	}
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), n);

	/*
	 * As many rotations again, all but the dead EV's packets SACKed from
	 * a base past the holes: its new packets were sprayed after the
	 * finding, and the oldest of them is overdue.
	 */
	tf_post_write(f, EV_REMOTE_VA + n_all * TF_MTU, EV_REMOTE_RKEY, 2, 0,
		      n_all * TF_MTU);
	tf_req_run(f);
	bitmap = 0;
	for (i = 0; i < n_all; i++) {
		tf_pop(f, &h);
		KUNIT_ASSERT_EQ(test, h.psn, EV_SQ_PSN + n_all + i);
		if (h.ev != dead)
			bitmap |= BIT_ULL(i + 64 - n_all);
		else
			n_new++;
	}
	KUNIT_ASSERT_EQ(test, skb_queue_len(&f->out), 0U);
	ev_sack_from(f, 2 * n_all - 64, bitmap);

	KUNIT_EXPECT_NE(test, s->ev[slot].value, dead);
	KUNIT_EXPECT_EQ(test, mrc_ev_plane(s->ev[slot].value), pl);
	KUNIT_EXPECT_EQ(test, s->ev[slot].state, MRC_EV_STATE_GOOD);
	KUNIT_EXPECT_EQ(test, s->ev[slot].suspect, 0);
	KUNIT_EXPECT_NOT_NULL(test, ev_retired_find(f, pl,
						    mrc_ev_entropy(dead)));
	KUNIT_EXPECT_EQ(test, ev_cnt(f, pl, MRC_CNT_EV_ASSUMED_BAD), 1);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 1);
	/* What it was given after the finding: its share of the second write. */
	KUNIT_EXPECT_GT(test, n_new, 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ev_retire_seen.sent_after), n_new);
}

/*
 * The same dead path on a plane whose longest round trip lately was 2 s:
 * holes younger than that may be queued behind a busier uplink of the
 * plane, so distance alone resends nothing and suspects nothing yet.
 * Once they have been out that long, the next SACK resends them, though
 * its bitmap starts past them and only cum_psn, the first, is reported
 * missing in it: the first SACK marked them for every later one to judge.
 */
static void ev_sack_distance_waits_out_plane_rtt(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 ev_of[EV_DEAD_ROT * EV_DEAD_N], overdue[EV_DEAD_ROT], n, i;
	u32 slot, past;
	struct mrc_hdrs h;
	u64 bitmap;
	u8 pl;

	n = ev_dead_spray(f, ev_of, &bitmap, overdue);
	KUNIT_ASSERT_EQ(test, n, MRC_EV_SUSPECT_MAX);
	KUNIT_ASSERT_EQ(test, overdue[0], 0);
	past = overdue[n - 1] + 1;
	slot = mrc_ev_slot(ev_of[0]);
	pl = mrc_ev_plane(ev_of[0]);
	f->qp->req.plane_rtt_us[pl] = 2 * USEC_PER_SEC;

	ev_sack(f, EV_SQ_PSN, bitmap);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, s->ev[slot].suspect, 0);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 0);

	/* Three seconds later: every packet was sent that long ago. */
	for (i = 0; i < ARRAY_SIZE(ev_of); i++)
		mrc_slot(f->qp, EV_SQ_PSN + i)->sent_ns -= 3 * NSEC_PER_SEC;
	ev_sack_from(f, past, bitmap >> past);
	KUNIT_EXPECT_EQ(test, s->ev[slot].suspect, 1);
	for (i = 0; i < n; i++) {
		tf_pop(f, &h);
		KUNIT_EXPECT_EQ(test, h.psn, EV_SQ_PSN + overdue[i]);
		KUNIT_EXPECT_TRUE(test, h.flags & MRC_BTH_F_RTX);
	}
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), n);
}

#define EV_STALL_ROT	7

/*
 * One plane stalls (a slow network, a busy CPU behind it): none of its
 * packets is SACKed yet, though every other plane's are, up to 55 PSNs
 * past its first.  Against its own plane nothing is overdue, and against
 * the highest of all it is not yet MRC_REORDER_PLANES times the threshold
 * behind: nothing is resent and its path is not suspected.
 */
static void ev_sack_stalled_plane_not_judged(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 ev_of[EV_STALL_ROT * EV_PLANES], slow, i;
	u64 bitmap = 0;

	ev_spray(f, EV_STALL_ROT, ev_of);
	slow = ev_of[0];
	for (i = 0; i < ARRAY_SIZE(ev_of); i++)
		if (ev_of[i] != slow)
			bitmap |= BIT_ULL(i);
	KUNIT_ASSERT_GE(test, fls64(bitmap) - 1, MRC_REORDER_THRESH);

	ev_sack(f, EV_SQ_PSN, bitmap);

	KUNIT_EXPECT_EQ(test, s->ev[mrc_ev_slot(slow)].value, slow);
	KUNIT_EXPECT_EQ(test, s->ev[mrc_ev_slot(slow)].suspect, 0);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 0);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 0);
}

#define EV_SILENT_ROT	20

/*
 * A plane gone silent has no highest PSN of its own: its oldest hole is
 * judged by the highest of all, once that is MRC_REORDER_PLANES times the
 * threshold past it.  The SACK reports PSNs 96 to 159: of the silent
 * plane's packets it says only the oldest (cum_psn) and those among them
 * are missing, and of these only the oldest is that far behind.  The
 * other planes' packets below 96 it does not report at all: though later
 * ones on their EVs arrived, they are not judged lost on this SACK's word.
 */
static void ev_sack_silent_plane_judged_from_afar(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	const u32 base = EV_SILENT_ROT * EV_PLANES - 64;
	u32 ev_of[EV_SILENT_ROT * EV_PLANES], silent, i;
	struct mrc_hdrs h;
	u64 bitmap = 0;

	BUILD_BUG_ON(EV_SILENT_ROT * EV_PLANES - 64 <
		     MRC_REORDER_PLANES * MRC_REORDER_THRESH - 63);
	ev_spray(f, EV_SILENT_ROT, ev_of);
	silent = ev_of[0];
	for (i = base; i < ARRAY_SIZE(ev_of); i++)
		if (ev_of[i] != silent)
			bitmap |= BIT_ULL(i - base);

	ev_sack_from(f, base, bitmap);

	KUNIT_EXPECT_EQ(test, s->ev[mrc_ev_slot(silent)].suspect, 1);
	tf_pop(f, &h);
	KUNIT_EXPECT_EQ(test, h.psn, EV_SQ_PSN);
	KUNIT_EXPECT_TRUE(test, h.flags & MRC_BTH_F_RTX);
	KUNIT_EXPECT_NE(test, mrc_ev_plane(h.ev), mrc_ev_plane(silent));
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 1);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 0);
}

/*
 * A packet judged lost on its EV (two later ones on the same EV came) that
 * the peer had after all: the copy is answered DUP|RTX, and the margin of
 * overtaking packets allowed on one EV grows by one.
 */
static void ev_sack_spurious_loss_widens_margin(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_req *req = &f->qp->req;
	const u8 dup = MRC_SACK_F_DUP | MRC_SACK_F_RTX;
	u32 ev_of[4 * EV_PLANES], i;
	u64 bitmap = 0;
	struct mrc_hdrs h;

	ev_spray(f, 4, ev_of);
	for (i = 1; i < ARRAY_SIZE(ev_of); i++)
		bitmap |= BIT_ULL(i);
	/* Three later packets on PSN 0's EV arrived: lost, not reordered. */
	ev_sack(f, EV_SQ_PSN, bitmap);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 1);
	tf_pop(f, &h);
	KUNIT_EXPECT_EQ(test, h.psn, EV_SQ_PSN);
	KUNIT_EXPECT_TRUE(test, h.flags & MRC_BTH_F_RTX);
	KUNIT_EXPECT_EQ(test, req->ev_margin, MRC_EV_MARGIN);

	tf_sack(f, EV_SQ_PSN, dup, EV_SQ_PSN + ARRAY_SIZE(ev_of), 0);
	KUNIT_EXPECT_EQ(test, req->psn_una, EV_SQ_PSN + ARRAY_SIZE(ev_of));
	KUNIT_EXPECT_EQ(test, req->ev_margin, MRC_EV_MARGIN + 1);
	KUNIT_EXPECT_EQ(test, req->reo_thresh, MRC_REORDER_THRESH);
	/* The same answer again changes nothing. */
	tf_sack(f, EV_SQ_PSN, dup, EV_SQ_PSN + ARRAY_SIZE(ev_of), 0);
	KUNIT_EXPECT_EQ(test, req->ev_margin, MRC_EV_MARGIN + 1);
}

/*
 * The same SACK when PSN 0 left from another CPU than the later packets on
 * its EV: they may have overtaken it in their CPU's queue while PSN 0's
 * CPU stalled, so it is not lost yet.  It is within the distance threshold
 * of its plane's highest, so nothing is resent and nothing retired: the
 * path's order is proof only within one CPU's queue.
 */
static void ev_sack_other_cpu_overtake_not_lost(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 ev_of[4 * EV_PLANES], i;
	u64 bitmap = 0;

	ev_spray(f, 4, ev_of);
	mrc_slot(f->qp, EV_SQ_PSN)->cpu++;
	for (i = 1; i < ARRAY_SIZE(ev_of); i++)
		bitmap |= BIT_ULL(i);
	ev_sack(f, EV_SQ_PSN, bitmap);

	KUNIT_EXPECT_EQ(test, s->ev[mrc_ev_slot(ev_of[0])].value, ev_of[0]);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_FAST_RETRANSMITS), 0);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), 0);
	KUNIT_EXPECT_EQ(test, f->qp->req.psn_una, EV_SQ_PSN);
}

/*
 * A resend is answered, with the echo of the EV it went out on, while an
 * older packet on that EV is still on its way: resends leave from the CPU
 * that handles SACKs and overtake packets sent from another (veth queues
 * per CPU).  The answer must not advance the EV's order, or the older
 * packet would be judged lost and a healthy EV retired: a burst of resends
 * retired a dozen that way at once in mrc_stev.sh under load.
 */
static void ev_resend_answer_keeps_ev_order(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 ev_of[4 * EV_PLANES], i, y;
	struct mrc_hdrs h, sack = {
		.opcode = MRC_OP_SACK,
		.psn = EV_SQ_PSN,
		.sack = {
			.flags = MRC_SACK_F_RTX,
			.cum_psn = EV_SQ_PSN + 3 * EV_PLANES,
			.sack_psn = EV_SQ_PSN + 3 * EV_PLANES,
			.window = MRC_WINDOW_DEFAULT,
		},
	};
	u64 bitmap = 0, bad;

	ev_spray(f, 4, ev_of);
	/* Rounds 0-2 but PSN 0, which is lost: two later ones on its EV. */
	for (i = 1; i < 3 * EV_PLANES; i++)
		bitmap |= BIT_ULL(i);
	ev_sack(f, EV_SQ_PSN, bitmap);
	bad = tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD);
	tf_pop(f, &h);
	KUNIT_ASSERT_EQ(test, h.psn, EV_SQ_PSN);
	KUNIT_ASSERT_TRUE(test, h.flags & MRC_BTH_F_RTX);
	y = h.ev;
	KUNIT_ASSERT_NE(test, mrc_ev_plane(y), mrc_ev_plane(ev_of[0]));
	/* Round 3's packet on y is out; the resend is answered first. */
	sack.dqpn = f->qp->ibqp.qp_num;
	sack.sack.ref_ev = y;
	tf_sack_rcv(f, &sack);
	KUNIT_EXPECT_EQ(test, f->qp->req.psn_una, EV_SQ_PSN + 3 * EV_PLANES);
	KUNIT_EXPECT_EQ(test, s->ev[mrc_ev_slot(y)].value, y);
	KUNIT_EXPECT_EQ(test, s->ev[mrc_ev_slot(y)].acked_seq, 3U);

	/* Round 3 arrives: no further EV was judged lost. */
	ev_sack(f, EV_SQ_PSN + 4 * EV_PLANES, 0);
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_EV_ASSUMED_BAD), bad);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
}

/*
 * STEV: the flow label is the documented function of the entropy alone
 * (plane, slot and the untracked flag of a probed retired entropy leave it
 * unchanged), never 0, and one-to-one: no two entropies share a label.
 */
static void ev_stev_label_derivation(struct kunit *test)
{
	unsigned long *seen;
	u32 e, label;

	KUNIT_EXPECT_EQ(test, mrc_ev_flow_label(mrc_ev_value(0, 0, 0)),
			0x9e377U);
	/* 2 * 0x9e377 = 0x13c6ee, modulo 2^20. */
	KUNIT_EXPECT_EQ(test, mrc_ev_flow_label(mrc_ev_value(0, 0, 1)),
			0x3c6eeU);
	seen = kunit_kzalloc(test, BITS_TO_LONGS(BIT(20)) * sizeof(long),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	for (e = 0; e < BIT(MRC_EV_ENTROPY_BITS); e++) {
		label = mrc_ev_flow_label(mrc_ev_value(3, 7, e));
		KUNIT_ASSERT_NE(test, label, 0U);
		KUNIT_ASSERT_LE(test, label, 0xfffffU);
		KUNIT_ASSERT_FALSE(test, __test_and_set_bit(label, seen));
		KUNIT_ASSERT_EQ(test, mrc_ev_flow_label(mrc_ev_untracked(5, e)),
				label);
	}
}

/*
 * The label each packet of a STEV QP leaves with, from the EV in the BTH
 * of the packets the real requester built, as mrc_net_xmit() takes it: the
 * EV's own label.  A retired entropy is probed under the label it lost
 * packets with, while its slot's new EV has another.  Under UDP the path's
 * AV label goes out whatever the EV.
 */
static void ev_stev_packets_labelled(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 ev_of[2 * EV_PLANES], i, old, slot;
	struct mrc_av *av;
	u8 pl;

	spin_lock_bh(&f->qp->lock);
	mrc_ev_configure(f->qp, 0, MRC_EV_BACKUP, MRC_EV_EVENTS_ALL,
			 MRC_EV_FORMAT_STEV);
	spin_unlock_bh(&f->qp->lock);
	ev_spray(f, 2, ev_of);
	for (i = 0; i < ARRAY_SIZE(ev_of); i++) {
		av = &s->path[mrc_ev_plane(ev_of[i])].av;
		KUNIT_EXPECT_EQ(test, mrc_ev_label(s, av, ev_of[i]),
				mrc_ev_flow_label(ev_of[i]));
	}

	old = ev_of[0];
	slot = mrc_ev_slot(old);
	pl = mrc_ev_plane(old);
	av = &s->path[pl].av;
	ev_retire(f, old);
	KUNIT_ASSERT_NE(test, s->ev[slot].value, old);
	KUNIT_EXPECT_NE(test, mrc_ev_label(s, av, s->ev[slot].value),
			mrc_ev_flow_label(old));
	KUNIT_EXPECT_EQ(test, mrc_ev_label(s, av,
					   mrc_ev_untracked(pl,
							    mrc_ev_entropy(old))),
			mrc_ev_flow_label(old));

	av->flow_label = 0x12345;
	spin_lock_bh(&f->qp->lock);
	mrc_ev_configure(f->qp, 0, MRC_EV_BACKUP, MRC_EV_EVENTS_ALL,
			 MRC_EV_FORMAT_UDP);
	spin_unlock_bh(&f->qp->lock);
	KUNIT_EXPECT_EQ(test, mrc_ev_label(s, av, s->ev[slot].value), 0x12345U);
}

static bool ev_peer_status_at(struct tf *f, u32 psn, u32 plane, u32 seq,
			      u32 down)
{
	struct mrc_hdrs h = {
		.opcode = MRC_OP_PORT_STATUS,
		.dqpn = f->qp->ibqp.qp_num,
		.psn = psn,
		.pstat = { .seq = seq, .down = down },
	};
	bool applied;

	spin_lock_bh(&f->qp->lock);
	applied = mrc_ev_peer_status(f->qp, &h, plane);
	spin_unlock_bh(&f->qp->lock);
	return applied;
}

/* As the peer sends it: its next PSN, on its first plane that is up. */
static bool ev_peer_status(struct tf *f, u32 seq, u32 down)
{
	return ev_peer_status_at(f, f->qp->resp.cum_psn, ffz(down), seq, down);
}

/* Two passes of picks: none lands on @pl. */
static void ev_picks_avoid(struct tf *f, u8 pl)
{
	u32 i, slot;

	for (i = 0; i < 2 * EV_N; i++) {
		slot = ev_pick_slot(f, -1);
		KUNIT_ASSERT_NE(f->test, f->qp->evs->ev[slot].plane, pl);
	}
}

/*
 * The peer's port status: a plane it has down is down for this QP (never
 * picked, its slots ASSUMED_BAD once each, as for a plane down here); the
 * second copy or an overtaken update changes nothing, also across the
 * sequence's wrap; a plane the peer has back is probed again (its slots
 * come back through probes, not by the update); bits beyond the planes are
 * ignored; a new address vector forgets what the old peer said.
 */
static void ev_peer_status_planes(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	int runs;

	KUNIT_ASSERT_TRUE(test, ev_peer_status(f, 0xfffffffe,
					       BIT(3) | BIT(31)));
	KUNIT_EXPECT_EQ(test, s->peer_down, BIT(3));
	ev_picks_avoid(f, 3);
	ev_expect_plane_bad(f, 3);

	KUNIT_EXPECT_FALSE(test, ev_peer_status(f, 0xfffffffe, 0));
	KUNIT_EXPECT_FALSE(test, ev_peer_status(f, 0xfffffff0, 0));
	KUNIT_EXPECT_EQ(test, s->peer_down, BIT(3));

	/* Newer across the wrap: plane 3 back, plane 5 down. */
	del_timer_sync(&s->probe_timer);
	runs = atomic_read(&ev_probe_runs);
	KUNIT_ASSERT_TRUE(test, ev_peer_status(f, 1, BIT(5)));
	KUNIT_EXPECT_EQ(test, s->peer_down, BIT(5));
	KUNIT_EXPECT_TRUE(test, timer_pending(&s->probe_timer) ||
			  atomic_read(&ev_probe_runs) != runs);
	ev_picks_avoid(f, 5);
	ev_picks_avoid(f, 3);
	KUNIT_EXPECT_EQ(test, ev_cnt(f, 5, MRC_CNT_EV_ASSUMED_BAD),
			EV_PER_PLANE);

	ev_install(f, EV_N);
	KUNIT_EXPECT_EQ(test, s->peer_down, 0U);
	KUNIT_EXPECT_TRUE(test, ev_peer_status(f, 0, 0));
}

/*
 * A forged port status, from someone who knows the QPN only: a PSN outside
 * a window of the responder's, or saying down the plane it came on.  It
 * changes nothing, and the peer's own next update still applies.
 */
static void ev_peer_status_forged(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u32 cum = f->qp->resp.cum_psn, w = f->qp->resp.window;
	u32 all = GENMASK(EV_PLANES - 1, 1), pl, rejected = 0;

	KUNIT_EXPECT_FALSE(test, ev_peer_status_at(f, mrc_psn_add(cum, w + 1),
						   0, 7, all));
	KUNIT_EXPECT_FALSE(test, ev_peer_status_at(f, mrc_psn_add(cum, -(w + 1)),
						   0, 7, all));
	KUNIT_EXPECT_FALSE(test, ev_peer_status_at(f, cum, 1, 7, all));
	KUNIT_EXPECT_EQ(test, s->peer_down, 0U);
	KUNIT_EXPECT_FALSE(test, s->peer_seq_valid);
	for (pl = 0; pl < EV_PLANES; pl++)
		rejected += ev_cnt(f, pl, MRC_CNT_PSTAT_REJECTED);
	KUNIT_EXPECT_EQ(test, rejected, 3U);
	KUNIT_EXPECT_EQ(test, ev_cnt(f, 1, MRC_CNT_PSTAT_REJECTED), 1U);

	/* The edges of the window are the peer's. */
	KUNIT_EXPECT_TRUE(test, ev_peer_status_at(f, mrc_psn_add(cum, w), 0, 1,
						  BIT(4)));
	KUNIT_EXPECT_TRUE(test, ev_peer_status_at(f, mrc_psn_add(cum, -w), 0, 2,
						  BIT(5)));
	KUNIT_EXPECT_EQ(test, s->peer_down, BIT(5));

	/*
	 * A peer QP still in RTR has no sq_psn yet: it sends its responder's
	 * cum_psn, a PSN our requester sent lately.
	 */
	KUNIT_EXPECT_TRUE(test, ev_peer_status_at(f, f->qp->req.psn_next, 0, 3,
						  BIT(6)));
	KUNIT_EXPECT_EQ(test, s->peer_down, BIT(6));
}

/*
 * A forged port status far ahead of the peer's sequence is refused and
 * counted; one that lands within the step holds only while repeated: the
 * peer's own update resynchronises once it is MRC_PSTAT_EXPIRE_MS old, and
 * planes no one repeats are down are given back.  A repeat of what holds
 * keeps it.
 */
static void ev_peer_status_bounded(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_evset *s = f->qp->evs;
	u64 old = (MRC_PSTAT_EXPIRE_MS + 1) * NSEC_PER_MSEC;
	u32 pl, rejected = 0;

	KUNIT_ASSERT_TRUE(test, ev_peer_status(f, 10, BIT(3)));
	KUNIT_EXPECT_FALSE(test, ev_peer_status(f, 10 + MRC_PSTAT_SEQ_STEP + 1,
						BIT(4)));
	for (pl = 0; pl < EV_PLANES; pl++)
		rejected += ev_cnt(f, pl, MRC_CNT_PSTAT_REJECTED);
	KUNIT_EXPECT_EQ(test, rejected, 1U);
	KUNIT_EXPECT_EQ(test, s->peer_down, BIT(3));

	/* The peer's repeat keeps it fresh; what is not repeated expires. */
	s->peer_status_ns -= old / 2;
	KUNIT_EXPECT_FALSE(test, ev_peer_status(f, 10, BIT(3)));
	s->peer_status_ns -= old / 2;
	spin_lock_bh(&f->qp->lock);
	mrc_ev_peer_status_expire(f->qp);
	spin_unlock_bh(&f->qp->lock);
	KUNIT_EXPECT_EQ(test, s->peer_down, BIT(3));
	s->peer_status_ns -= old;
	spin_lock_bh(&f->qp->lock);
	mrc_ev_peer_status_expire(f->qp);
	spin_unlock_bh(&f->qp->lock);
	KUNIT_EXPECT_EQ(test, s->peer_down, 0U);

	/* A forgery within the step, then the peer's older sequence. */
	KUNIT_ASSERT_TRUE(test, ev_peer_status(f, 10 + MRC_PSTAT_SEQ_STEP,
					       BIT(5)));
	KUNIT_EXPECT_FALSE(test, ev_peer_status(f, 11, BIT(6)));
	KUNIT_EXPECT_EQ(test, s->peer_down, BIT(5));
	s->peer_status_ns -= old;
	KUNIT_EXPECT_TRUE(test, ev_peer_status(f, 11, BIT(6)));
	KUNIT_EXPECT_EQ(test, s->peer_down, BIT(6));
	KUNIT_EXPECT_EQ(test, s->peer_seq, 11U);
}

static bool ev_from4(struct tf *f, u32 plane, u32 addr)
{
	struct mrc_rx_src src = { .family = AF_INET, .v4 = htonl(addr) };

	return mrc_ev_peer_addr_ok(f->qp, plane, &src);
}

static bool ev_from6(struct tf *f, u32 plane, const char *addr)
{
	struct mrc_rx_src src = { .family = AF_INET6 };

	KUNIT_ASSERT_EQ(f->test, in6_pton(addr, -1, src.v6.s6_addr, -1, NULL), 1);
	return mrc_ev_peer_addr_ok(f->qp, plane, &src);
}

/*
 * Only the peer's address on the arrival plane passes the source check:
 * not another plane's, not a neighbour's, not the same IPv4 address mapped
 * into IPv6; a plane without a path has only the AV's address.
 */
static void ev_peer_addr_per_plane(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_path *p;
	u32 pl;

	f->qp->av.family = AF_INET;
	f->qp->av.plane = 0;
	f->qp->av.daddr.v4 = htonl(0x0a000002);
	ev_install_mask(f, GENMASK(EV_PLANES - 1, 0) & ~BIT(2), EV_N);

	for (pl = 0; pl < EV_PLANES; pl++) {
		if (pl == 2)
			continue;
		KUNIT_EXPECT_TRUE(test, ev_from4(f, pl, 0x0a000002 | pl << 8));
		KUNIT_EXPECT_FALSE(test, ev_from4(f, pl, 0x0a000003 | pl << 8));
		KUNIT_EXPECT_FALSE(test, ev_from4(f, pl, 0x0a000002 | (pl ^ 1) << 8));
	}
	KUNIT_EXPECT_TRUE(test, ev_from4(f, 2, 0x0a000002));
	KUNIT_EXPECT_FALSE(test, ev_from4(f, 2, 0x0a000202));
	KUNIT_EXPECT_FALSE(test, ev_from6(f, 0, "::ffff:10.0.0.2"));
	KUNIT_EXPECT_FALSE(test, ev_from6(f, 0, "::a00:2"));

	/* An IPv6 path: the whole address counts, and IPv4 never matches it. */
	spin_lock_bh(&f->qp->lock);
	p = &f->qp->evs->path[3];
	p->av.family = AF_INET6;
	KUNIT_EXPECT_EQ(test, in6_pton("fc00:0:3::2", -1, p->av.daddr.v6.s6_addr,
				       -1, NULL), 1);
	spin_unlock_bh(&f->qp->lock);
	KUNIT_EXPECT_TRUE(test, ev_from6(f, 3, "fc00:0:3::2"));
	KUNIT_EXPECT_FALSE(test, ev_from6(f, 3, "fc00:0:3::3"));
	KUNIT_EXPECT_FALSE(test, ev_from6(f, 3, "fc00:1:3::2"));
	KUNIT_EXPECT_FALSE(test, ev_from4(f, 3, 0x0a000302));
}

/*
 * A plane of the device changed: two PORT_STATUS packets to the peer QP,
 * outside the PSN sequence, on two planes, never on a plane that is down
 * here; and the probes run now, not when the backoff of a dead plane says.
 */
static void ev_port_status_packets(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h[2];
	int runs;
	u32 i, pl;

	for (pl = 1; pl < EV_PLANES; pl++)
		if (pl != 6)
			WRITE_ONCE(ev_plane(f, pl)->up, false);
	del_timer_sync(&f->qp->evs->probe_timer);
	runs = atomic_read(&ev_probe_runs);
	spin_lock_bh(&f->qp->lock);
	mrc_ev_planes_changed(f->qp, 7, 0xbe, &f->out);
	spin_unlock_bh(&f->qp->lock);
	KUNIT_EXPECT_TRUE(test, timer_pending(&f->qp->evs->probe_timer) ||
			  atomic_read(&ev_probe_runs) != runs);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&f->out), 2U);
	for (i = 0; i < 2; i++) {
		tf_pop(f, &h[i]);
		KUNIT_EXPECT_EQ(test, h[i].opcode, MRC_OP_PORT_STATUS);
		KUNIT_EXPECT_EQ(test, h[i].dqpn, f->qp->attr.dest_qp_num);
		KUNIT_EXPECT_EQ(test, h[i].psn, EV_SQ_PSN);
		KUNIT_EXPECT_EQ(test, h[i].pstat.seq, 7U);
		KUNIT_EXPECT_EQ(test, h[i].pstat.down, 0xbeU);
		pl = mrc_ev_plane(h[i].ev);
		KUNIT_EXPECT_TRUE(test, pl == 0 || pl == 6);
	}
	KUNIT_EXPECT_NE(test, mrc_ev_plane(h[0].ev), mrc_ev_plane(h[1].ev));
	KUNIT_EXPECT_EQ(test, tf_count_planes(f, MRC_CNT_PSTAT_TX), 2);
}

/*
 * The probe timer repeats the device's last update as the device stored
 * it.  A plane already down that no update has numbered yet stays out of
 * the repeat: sent under the old sequence, the peer would apply the change
 * twice, once under each number.
 */
static void ev_port_status_repeat_stored(struct kunit *test)
{
	struct tf *f = test->priv;
	struct mrc_hdrs h;
	u32 i;

	WRITE_ONCE(ev_plane(f, 2)->up, false);
	atomic64_set(&f->mdev->pstat, 0);
	spin_lock_bh(&f->qp->lock);
	mrc_ev_port_status_repeat(f->qp, &f->out);
	spin_unlock_bh(&f->qp->lock);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);

	atomic64_set(&f->mdev->pstat, (u64)4 << 32 | BIT(2));
	f->mdev->pstat_ns = ktime_get_ns();
	spin_lock_bh(&f->qp->lock);
	mrc_ev_port_status_repeat(f->qp, &f->out);
	spin_unlock_bh(&f->qp->lock);
	KUNIT_ASSERT_EQ(test, skb_queue_len(&f->out), 2U);
	for (i = 0; i < 2; i++) {
		tf_pop(f, &h);
		KUNIT_EXPECT_EQ(test, h.opcode, MRC_OP_PORT_STATUS);
		KUNIT_EXPECT_EQ(test, h.pstat.seq, 4U);
		KUNIT_EXPECT_EQ(test, h.pstat.down, BIT(2));
	}

	/* The next repeat waits MRC_PSTAT_REPEAT_MS. */
	spin_lock_bh(&f->qp->lock);
	mrc_ev_port_status_repeat(f->qp, &f->out);
	spin_unlock_bh(&f->qp->lock);
	KUNIT_EXPECT_EQ(test, skb_queue_len(&f->out), 0U);
}

static struct kunit_case mrc_ev_cases[] = {
	KUNIT_CASE(ev_install_splits_planes),
	KUNIT_CASE(ev_install_spares_distinct),
	KUNIT_CASE(ev_install_clamps_and_splits),
	KUNIT_CASE(ev_install_follows_profile),
	KUNIT_CASE(ev_install_srv6_covers_paths),
	KUNIT_CASE(ev_controller_probe),
	KUNIT_CASE(ev_controller_gone_before_answer),
	KUNIT_CASE(ev_forged_probe_answer_rejected),
	KUNIT_CASE(ev_pick_rotation_fair),
	KUNIT_CASE(ev_pick_never_bad_or_denied),
	KUNIT_CASE(ev_pick_lone_good_across_reshuffles),
	KUNIT_CASE(ev_pick_avoids_plane),
	KUNIT_CASE(ev_pick_avoided_plane_rotates),
	KUNIT_CASE(ev_pick_plane_down),
	KUNIT_CASE(ev_pick_fallback_live_plane),
	KUNIT_CASE(ev_peer_status_planes),
	KUNIT_CASE(ev_peer_addr_per_plane),
	KUNIT_CASE(ev_peer_status_forged),
	KUNIT_CASE(ev_peer_status_bounded),
	KUNIT_CASE(ev_port_status_packets),
	KUNIT_CASE(ev_port_status_repeat_stored),
	KUNIT_CASE(ev_retire_takes_spare),
	KUNIT_CASE(ev_retire_without_spare_and_floor),
	KUNIT_CASE(ev_retire_srv6_avoids_dead_path),
	KUNIT_CASE(ev_set_states_checks),
	KUNIT_CASE(ev_denied_stays_denied),
	KUNIT_CASE(ev_loss_attribution),
	KUNIT_CASE(ev_loss_one_cpu),
	KUNIT_CASE(ev_suspect_twice_retires),
	KUNIT_CASE(ev_suspect_one_flight_counts_once),
	KUNIT_CASE(ev_suspect_waits_out_plane_rtt),
	KUNIT_CASE(ev_sack_plane_rtt_tracks_longest),
	KUNIT_CASE(ev_retire_counts_sent_after_signal),
	KUNIT_CASE(ev_skip_sits_out_one_turn),
	KUNIT_CASE(ev_probe_answers_recover),
	KUNIT_CASE(ev_home_resumes_order),
	KUNIT_CASE(ev_home_denied_or_bad),
	KUNIT_CASE(ev_home_one_claim),
	KUNIT_CASE(ev_verdict_dispatch),
	KUNIT_CASE(ev_sack_retires_lost_path),
	KUNIT_CASE(ev_sack_two_holes_one_path),
	KUNIT_CASE(ev_sack_dead_path_retired_by_suspicion),
	KUNIT_CASE(ev_sack_distance_waits_out_plane_rtt),
	KUNIT_CASE(ev_sack_stalled_plane_not_judged),
	KUNIT_CASE(ev_sack_silent_plane_judged_from_afar),
	KUNIT_CASE(ev_sack_spurious_loss_widens_margin),
	KUNIT_CASE(ev_sack_other_cpu_overtake_not_lost),
	KUNIT_CASE(ev_resend_answer_keeps_ev_order),
	KUNIT_CASE(ev_stev_label_derivation),
	KUNIT_CASE(ev_stev_packets_labelled),
	{}
};

static struct kunit_suite mrc_ev_suite = {
	.name = "mrc-ev",
	.init = ev_init,
	.exit = ev_exit,
	.test_cases = mrc_ev_cases,
};

kunit_test_suite(mrc_ev_suite);
