/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of mrc: every EV state change and every retirement, with the
 * QP, the plane and the EV values, so path failures can be followed (and
 * their handling timed) with ftrace or perf without rebuilding.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mrc

#if !defined(_MRC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MRC_TRACE_H

#include <linux/tracepoint.h>

#define mrc_show_ev_state(s)					\
	__print_symbolic(s,					\
			 { MRC_EV_STATE_GOOD, "GOOD" },		\
			 { MRC_EV_STATE_SKIP, "SKIP" },		\
			 { MRC_EV_STATE_ASSUMED_BAD, "ASSUMED_BAD" }, \
			 { MRC_EV_STATE_DENIED, "DENIED" })

TRACE_EVENT(mrc_ev_state,
	    TP_PROTO(u32 qpn, u32 ev, u8 old_state, u8 new_state),
	    TP_ARGS(qpn, ev, old_state, new_state),
	    TP_STRUCT__entry(__field(u32, qpn)
			     __field(u32, ev)
			     __field(u8, old_state)
			     __field(u8, new_state)),
	    TP_fast_assign(__entry->qpn = qpn;
			   __entry->ev = ev;
			   __entry->old_state = old_state;
			   __entry->new_state = new_state;),
	    TP_printk("qpn=%u plane=%u ev=%#x %s -> %s", __entry->qpn,
		      __entry->ev >> 24, __entry->ev,
		      mrc_show_ev_state(__entry->old_state),
		      mrc_show_ev_state(__entry->new_state))
);

#define mrc_show_ev_why(w)					\
	__print_symbolic(w,					\
			 { MRC_EV_WHY_LOST, "lost" },		\
			 { MRC_EV_WHY_SUSPECT, "suspect" },	\
			 { MRC_EV_WHY_PEER, "peer" },		\
			 { MRC_EV_WHY_TIMEOUT, "timeout" })

TRACE_EVENT(mrc_ev_retire,
	    TP_PROTO(u32 qpn, u32 old_ev, u32 new_ev, u64 took_ns, u32 after,
		     u8 why),
	    TP_ARGS(qpn, old_ev, new_ev, took_ns, after, why),
	    TP_STRUCT__entry(__field(u32, qpn)
			     __field(u32, old_ev)
			     __field(u32, new_ev)
			     __field(u64, took_ns)
			     __field(u32, after)
			     __field(u8, why)),
	    TP_fast_assign(__entry->qpn = qpn;
			   __entry->old_ev = old_ev;
			   __entry->new_ev = new_ev;
			   __entry->took_ns = took_ns;
			   __entry->after = after;
			   __entry->why = why;),
	    TP_printk("qpn=%u plane=%u ev=%#x replaced by %#x in %llu ns (%s), %u sent since the first loss signal",
		      __entry->qpn, __entry->old_ev >> 24, __entry->old_ev,
		      __entry->new_ev, __entry->took_ns,
		      mrc_show_ev_why(__entry->why), __entry->after)
);

#endif /* _MRC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
