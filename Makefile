# SPDX-License-Identifier: GPL-2.0
#
# mrc: out-of-tree build of mrc/mrc.ko, the mrcctl tool, and the test entry points.
#   make                 module against KDIR (default: newest installed Debian kernel headers)
#   make tools           mrcctl, mrc-xfer, libmrc (lib_mrc.so) and the OCP programs built on it
#   make check           everything the README promises (see tools/testing/check.sh)
#   make demo            boot the stock kernel and show mrc on the 8-plane topology
#   make bench           mrc against rdma_rxe with perftest (a benchmark, not a test)
#   make bench-multipath one QP over 8 shaped planes: spraying, failover, loss (benchmark)
#   make bench-srv6      one QP on the shaped SRv6 fabric through a spine failure (benchmark)
#   make bench-ulp       NVMe-oF between two guests over mrc, rdma_rxe and nvme-tcp (benchmark)
#   make fuzz            hostile packets at live QPs for FUZZ_S seconds in the debug kernel

KVER ?= $(shell tools/testing/vm/stock-kver.sh)
KDIR ?= /usr/src/linux-headers-$(KVER)
W ?= 1

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=$(W) modules

modules_install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

install: modules_install tools
	$(MAKE) -C tools/mrcctl install
	$(MAKE) -C tools/mrc-xfer install
	$(MAKE) -C tools/lib/mrc install

LIBMRC = $(CURDIR)/tools/lib/mrc

tools:
	$(MAKE) -C tools/mrcctl
	$(MAKE) -C tools/mrc-xfer
	$(MAKE) -C tools/testing/mrc-rcerr
	$(MAKE) -C tools/lib/mrc
	$(MAKE) -C tools/testing/ocp/benchmark mrc_example \
		MRC_H_PATH=$(LIBMRC)/include MRC_LIB_DIR=$(LIBMRC)
	$(MAKE) -C tools/testing/ocp/test INC="-I$(LIBMRC)/include" \
		LIBS="-L$(LIBMRC) -l_mrc -Wl,-rpath,$(LIBMRC) -libverbs"

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=$(W) C=2 CHECK=sparse modules

check:
	tools/testing/check.sh

check-long:
	tools/testing/check-long.sh

demo:
	tools/testing/demo.sh

fuzz:
	tools/testing/fuzz.sh

bench:
	tools/bench/bench.sh

bench-multipath:
	tools/bench/multipath.sh

bench-srv6:
	tools/bench/srv6.sh

bench-ulp:
	tools/bench/ulp.sh

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tools/mrcctl clean
	$(MAKE) -C tools/mrc-xfer clean
	$(MAKE) -C tools/testing/mrc-rcerr clean
	$(MAKE) -C tools/lib/mrc clean
	$(MAKE) -C tools/testing/ocp/benchmark clean
	$(MAKE) -C tools/testing/ocp/test clean
	rm -rf .build

.PHONY: all modules modules_install install tools sparse check check-long demo fuzz bench bench-multipath bench-srv6 bench-ulp clean
