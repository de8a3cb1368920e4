# gputop-bpf. `make V=1` shows the commands; `make STATIC=1` links one static binary;
# `make PORTABLE=1` links every library statically but the C library (glibc >= the build
# machine's), for machines without libbpf that need dlopen (NVML); `make SAN=1` builds with
# clang's AddressSanitizer and UBSan, float-cast-overflow included (into build/san); `make TSAN=1`
# with its ThreadSanitizer (build/tsan: the replay's reader threads); `make fuzz` runs the
# libFuzzer targets of tests/fuzz for FUZZ_SECONDS each (build/fuzz).
.DELETE_ON_ERROR:
.SECONDARY:
.SUFFIXES:

# The C compiler asked for (CC=clang works too); make's own default 'cc' means gcc here.
ifeq ($(origin CC),default)
CC := gcc
endif
CLANG ?= clang
BPFTOOL ?= bpftool
PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
# systemd looks in /usr/local/lib/systemd/system as well as /etc and /usr/lib.
SYSTEMD_UNIT_DIR ?= $(PREFIX)/lib/systemd/system

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

ifeq ($(STATIC),1)
B := build/static
PKG_FLAGS := --static
LDFLAGS += -static
CFLAGS_VARIANT := -DGPUTOP_STATIC -DGPUTOP_NO_HTTP
else ifeq ($(PORTABLE),1)
B := build/portable
CFLAGS_VARIANT := -DGPUTOP_NO_HTTP
STATIC_LIBS := -Wl,-Bstatic -lbpf -ldw -lelf -lz -lzstd -lbz2 -llzma -lncursesw -ltinfo -Wl,-Bdynamic
else ifeq ($(SAN),1)
B := build/san
CC := $(CLANG)
SAN_FLAGS := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
else ifeq ($(TSAN),1)
B := build/tsan
CC := $(CLANG)
SAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
else ifeq ($(FUZZ),1)
B := build/fuzz
CC := $(CLANG)
SAN_FLAGS := -fsanitize=address,undefined,float-cast-overflow,fuzzer-no-link \
	-fno-omit-frame-pointer -fno-sanitize-recover=all
else
B := build/default
endif

# TEST_HOOKS=1: a test build (its own folder, build/<variant>-test) whose binary reads the
# GPUTOP_TEST_* variables of the VM, BPF and CUDA suites (tests/README.md); no other build has them.
ifeq ($(TEST_HOOKS),1)
B := $(B)-test
HOOK_FLAGS := -DGPUTOP_TEST_HOOKS
endif

# Libraries: what the monitor links. libdw unwinds copied stacks (--stacks, symbols/unwind.c);
# yajl reads recordings (an event parser: no tree per line);
# Debian's static archive of it is libyajl_s.a.
ifdef STATIC_LIBS
BASE_LIBS := $(STATIC_LIBS) -l:libyajl_s.a
CURSES_LIBS :=
else ifeq ($(STATIC),1)
BASE_LIBS := $(shell $(PKG_CONFIG) $(PKG_FLAGS) --libs libbpf libdw libelf ncursesw 2>/dev/null || echo -lbpf -ldw -lelf -lz -lbz2 -llzma -lncursesw -ltinfo) -l:libyajl_s.a
CURSES_LIBS :=
else
BASE_LIBS := $(shell $(PKG_CONFIG) --libs libbpf libdw libelf 2>/dev/null || echo -lbpf -ldw -lelf -lz) -lyajl
CURSES_LIBS := $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw -ltinfo)
HTTP_LIBS := -lmicrohttpd -lgnutls -lyaml -lcrypt
endif
# C++ names: libiberty's demangler, whose callback form can be stopped (symbols/demangle.c); Debian
# ships it as a static archive only.
BASE_LIBS += -l:libiberty.a
BASE_LIBS += -ldl -lpthread -lm
LIBS := $(BASE_LIBS) $(CURSES_LIBS) $(HTTP_LIBS)

# The kernel's name for the target architecture, for bpf_tracing.h (PT_REGS, BPF_PROG).
ARCH ?= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/i.86/x86/' -e 's/aarch64.*/arm64/' \
	-e 's/arm.*/arm/' -e 's/ppc64.*/powerpc/' -e 's/riscv64/riscv/' -e 's/s390x/s390/' \
	-e 's/loongarch64/loongarch/' -e 's/mips.*/mips/')
# The BPF compiler's own target triple, as Debian names the multiarch include folder
# (x86_64-pc-linux-gnu -> /usr/include/x86_64-linux-gnu: asm/types.h).
ARCH_INCLUDE := /usr/include/$(shell $(CLANG) -dumpmachine 2>/dev/null | sed -E 's/-(pc|unknown)-/-/')
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Werror -I. -I$(B) $(SAN_FLAGS) $(CFLAGS_VARIANT) $(HOOK_FLAGS) \
	-D_GNU_SOURCE
DEPFLAGS = -MMD -MP -MF $(@:.o=.d)
LDFLAGS += $(SAN_FLAGS)
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) -I$(ARCH_INCLUDE) -I. -Ibpf \
	$(HOOK_FLAGS) -Wall -Werror

# Rooms, lowest first: core (no project includes), model, format, symbols (core only), collectors
# (the kit, one folder per collector), output and recording, tui, src (main: the top floor).
BPF_SRCS := $(wildcard bpf/*.bpf.c)
SKELS := $(patsubst bpf/%.bpf.c,$(B)/%.skel.h,$(BPF_SRCS))
LIB_SRCS := $(wildcard core/*.c model/*.c format/*.c symbols/*.c collectors/*.c collectors/*/*.c \
	output/*.c recording/*.c tui/*.c) $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJS := $(patsubst %.c,$(B)/%.o,$(LIB_SRCS))
# Objects that register themselves (tables, collectors, panes) by a section: a test that walks a
# registry links them whole, as an archive would leave out what no symbol asks for.
TABLE_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard collectors/*/*_tables.c collectors/kit/*_table.c))
PANE_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard tui/pane_*.c))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRCS))

.PHONY: all gputop-bpf cupti clean deps soak test test-exporter test-unit test-cupti test-san test-docs test-bpf test-vm \
	install static-check format-check bench bench-replay cpu-cost test-tui example-recording example-trace example-sysfs-recording fuzz deb test-package

all: gputop-bpf cupti

# The binary at the top is a copy of the last variant built.
gputop-bpf: $(B)/gputop-bpf
	$(Q)rm -f $@ && cp $< $@

$(B)/gputop-bpf: $(B)/src/main.o $(LIB_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

# Everything but main, for the tests, the fuzzers and the benchmarks: each takes only the
# objects it asks for.
$(B)/libgputop.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/%.bpf.o: bpf/%.bpf.c | $(B)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@

$(B)/%.bpf.o: bench/%.bpf.c | $(B)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@

$(B)/%.skel.h: $(B)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst .skel.h,,$(notdir $@))_bpf > $@

$(B)/themes_builtin.h: $(wildcard themes/*.theme) tui/gen-themes.sh | $(B)
	$(call msg,GEN,$@)
	$(Q)sh tui/gen-themes.sh > $@

# Generated headers first (order only); after that the compiler's own list of what each
# object included (-MMD) says when it is built again.
$(B)/%.o: %.c | $(SKELS) $(B)/themes_builtin.h
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

# Benchmark helper (static, runs inside the VM).
$(B)/bpf_cost: bench/bpf_cost.c $(B)/empty.skel.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -MF $@.d $(LDFLAGS) -o $@ $< $(BASE_LIBS)

# The collector's per-event work on this CPU, maps against a ring buffer (make cpu-cost, root).
$(B)/cpu_cost: bench/cpu_cost.c $(B)/cpu_cost.skel.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -MF $@.d $(LDFLAGS) -o $@ $< $(BASE_LIBS)

# One ioctl no collector watches, timed (bench/calls-idle.sh).
$(B)/ioctl_loop: bench/ioctl_loop.c
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -MF $@.d $(LDFLAGS) -o $@ $<

# The recording reader alone, timed (bench/replay-scale.sh).
$(B)/read_bench: bench/read_bench.c $(TABLE_OBJS) $(B)/libgputop.a
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(BASE_LIBS)

# A unit test links its own file, the registered tables and what it asks for of the archive;
# libraries beyond libbpf, libelf and yajl only where it tests what needs them.
TEST_LIBS_test_tui_pure := $(CURSES_LIBS)
TEST_LIBS_test_derive_scale := -Wl,--wrap=table_num -Wl,--wrap=table_str
$(B)/tests/%: tests/unit/%.c $(TABLE_OBJS) $(B)/libgputop.a
	$(call msg,TEST-CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter-out %.a,$^) $(filter %.a,$^) $(BASE_LIBS) \
		$(TEST_LIBS_$*) -lcmocka
$(B)/tests/test_tui_pure: $(PANE_OBJS)
# The symbolizer's fixture programs, built by the test's build (tests/unit/symfix/make.sh).
$(B)/tests/symfix/.done: tests/unit/symfix/make.sh tests/unit/symfix/fixture.c tests/unit/symfix/fixture_cxx.cc
	$(call msg,FIXTURE,$(dir $@))
	$(Q)rm -rf $(dir $@) && tests/unit/symfix/make.sh $(dir $@)
$(B)/tests/test_symbols_elf: private CFLAGS += -DSYMFIX_DIR='"$(B)/tests/symfix"'
$(B)/tests/test_symbols_elf: | $(B)/tests/symfix/.done
# the collectors register themselves: linked whole
$(B)/tests/test_sysfs: $(B)/collectors/sensors/sensors.o $(B)/collectors/kfd/kfd.o $(B)/collectors/devices/devices.o

# The symbolizer as a command, for tests only (tests/symbols/live.sh): never in the product.
$(B)/tests/symbolize: tests/symbols/symbolize.c $(B)/libgputop.a
	$(call msg,TEST-CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(BASE_LIBS)

# The hostile corpus's writer (tests/bpf/hostile-corpus.sh): crafted ELF and DWARF files, never in the product.
$(B)/tests/hostile-corpus: tests/bpf/hostile-corpus.c tests/unit/hostile_elf.h | $(B)
	$(call msg,TEST-CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

# libFuzzer targets (make FUZZ=1): each links the library with one LLVMFuzzerTestOneInput.
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 15
TEST_LIBS_fuzz_theme := $(CURSES_LIBS)
TEST_LIBS_fuzz_config := $(CURSES_LIBS)
$(B)/fuzz/%: tests/fuzz/%.c $(TABLE_OBJS) $(B)/libgputop.a
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ $(BASE_LIBS) $(TEST_LIBS_$*)

# The CUPTI companion library (cupti/, docs/gpu-time.md), loaded by CUDA programs with
# CUDA_INJECTION64_PATH. CUPTI's headers: a CUDA toolkit's, Debian's libcupti-dev installed, or the
# one `make deps` unpacks into deps/cupti (tests/fetch-cupti-headers.sh); cuda.h, where no toolkit
# has one, the few types of cupti/cuda_shim (searched after the system's folders). Never with the
# sanitizers (SAN=1): a sanitized shared library needs their runtime loaded before the program starts.
CUDA_HOME ?= /usr/local/cuda
CUPTI_HEADER := $(firstword $(wildcard $(CUDA_HOME)/extras/CUPTI/include/cupti_activity.h \
	$(CUDA_HOME)/include/cupti_activity.h \
	/usr/include/cupti_activity.h deps/cupti/usr/include/cupti_activity.h))
CUPTI_INCLUDE ?= $(patsubst %/,%,$(dir $(CUPTI_HEADER)))
CUPTI_LIB := $(B)/cupti/libgputop-cupti.so
CUPTI_SRCS := $(filter-out cupti/test_hooks.c,$(wildcard cupti/*.c)) $(if $(HOOK_FLAGS),cupti/test_hooks.c)
CUPTI_CFLAGS := -std=gnu11 -O2 -g -D_FORTIFY_SOURCE=2 -fPIC -fvisibility=hidden -Wall -Wextra -Werror -I. $(HOOK_FLAGS) \
	-D_GNU_SOURCE $(if $(CUPTI_INCLUDE),-I$(CUPTI_INCLUDE)) $(if $(wildcard $(CUDA_HOME)/include/cuda.h),\
	-idirafter $(CUDA_HOME)/include) -idirafter cupti/cuda_shim

cupti: $(CUPTI_LIB)

$(CUPTI_LIB): $(CUPTI_SRCS) $(wildcard cupti/*.h) $(CUPTI_HEADER) | $(B)
	$(Q)[ -n "$(CUPTI_INCLUDE)" ] || { echo "cupti: CUPTI's headers are missing: run 'make deps'"; exit 1; }
	$(call msg,CC-SO,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CUPTI_CFLAGS) -shared -Wl,-soname,libgputop-cupti.so -Wl,--no-undefined -Wl,-z,relro,-z,now -o $@ \
		$(CUPTI_SRCS) -ldl -lpthread

# The NVIDIA collector's tests: a stand-in libcuda.so.1 and a client of known behaviour.
$(B)/cuda/libcuda.so.1: tests/cuda/fake_libcuda.c | $(B)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -O2 -fPIC -shared -fno-ipa-icf -fcf-protection=full -Wall -Wextra -Werror -Wl,-soname,libcuda.so.1 -o $@ $<

$(B)/cuda/cuda-client: tests/cuda/cuda-client.c $(B)/cuda/libcuda.so.1
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -fno-omit-frame-pointer -Wall -Wextra -Werror -o $@ $< -L$(B)/cuda -l:libcuda.so.1 -lpthread

# The companion library's tests (tests/cupti/run.sh): a stand-in libcupti.so of known records,
# built on CUPTI's headers, and a program on the stand-in libcuda that loads the library.
$(B)/cupti-fake/libcupti.so: tests/cuda/fake_libcupti.c | $(B)
	$(Q)[ -n "$(CUPTI_INCLUDE)" ] || { echo "cupti: CUPTI's headers are missing: run 'make deps'"; exit 1; }
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -O2 -fPIC -shared -Wall -Wextra -Werror -I$(CUPTI_INCLUDE) -idirafter cupti/cuda_shim \
		-Wl,-soname,libcupti.so -o $@ $< -lpthread

$(B)/cuda/cupti-client: tests/cuda/cupti-client.c $(B)/cuda/libcuda.so.1
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -Wall -Wextra -Werror -o $@ $< -L$(B)/cuda -l:libcuda.so.1

# A loop of N launches as fast as the stand-in takes them (tests/bpf/cuda.sh: --trace at a high rate).
$(B)/cuda/launch-loop: bench/launch_loop.c $(B)/cuda/libcuda.so.1
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -fno-omit-frame-pointer -Wall -Wextra -Werror -o $@ $< -L$(B)/cuda -l:libcuda.so.1

# The same two built without frame pointers (as Debian builds most libraries): --stacks unwinds
# them with DWARF (tests/bpf/cuda.sh finds them beside CUDA_DIR).
$(B)/cuda-nofp/libcuda.so.1: tests/cuda/fake_libcuda.c | $(B)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -O2 -fomit-frame-pointer -fPIC -shared -fno-ipa-icf -fcf-protection=full -Wall -Wextra -Werror -Wl,-soname,libcuda.so.1 -o $@ $<

$(B)/cuda-nofp/cuda-client: tests/cuda/cuda-client.c $(B)/cuda-nofp/libcuda.so.1
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -fomit-frame-pointer -Wall -Wextra -Werror -o $@ $< -L$(B)/cuda-nofp -l:libcuda.so.1 -lpthread

# A stand-in libnvidia-ml.so.1 of known GPUs and MIG devices, found by the monitor's own
# dlopen through LD_LIBRARY_PATH (tests/bpf/nvml.sh).
$(B)/nvml/libnvidia-ml.so.1: tests/cuda/fake_libnvml.c | $(B)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -O2 -fPIC -shared -Wall -Wextra -Werror -Wl,-soname,libnvidia-ml.so.1 -o $@ $<

# The same of a driver without the MIG entry points (older than 450).
$(B)/nvml/no-mig/libnvidia-ml.so.1: tests/cuda/fake_libnvml.c | $(B)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -O2 -fPIC -shared -DFAKE_NVML_NO_MIG -Wall -Wextra -Werror -Wl,-soname,libnvidia-ml.so.1 -o $@ $<

# The memory collector's two ways of finding a device's open files, compared (tests/bpf, bench).
$(B)/tests/fd-census: tests/bpf/fd-census.c $(B)/libgputop.a
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(BASE_LIBS)

# The collector kit's map helpers on real BPF maps (tests/bpf/kit.c; root).
$(B)/tests/kit: tests/bpf/kit.c $(B)/libgputop.a
	$(call msg,TEST-CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(BASE_LIBS) -lcmocka

# The GPU time BPF program on the CUPTI companion library (tests/bpf/cupti.c; root).
$(B)/tests/cupti-probe: tests/bpf/cupti-probe.c $(B)/cupti.skel.h $(B)/libgputop.a
	$(call msg,TEST-CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.c,$^) $(B)/libgputop.a $(BASE_LIBS)

# A Perfetto trace of known content, decoded by protoc against tests/perfetto/trace.proto.
$(B)/tests/perfetto-example: tests/perfetto/example.c $(B)/libgputop.a
	$(call msg,TEST-CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(BASE_LIBS)

# A trace file drawn as --trace FILE.svg draws (docs' pictures, tests/perfetto/run.sh).
$(B)/tests/trace-render: tests/perfetto/render.c $(B)/libgputop.a
	$(call msg,TEST-CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(BASE_LIBS)

# Decoding tests: the collectors' BPF handlers on synthetic records of every layout (tests/bpf/decode).
DECODE_SKELS := $(patsubst tests/bpf/decode/%.bpf.c,$(B)/tests/%.skel.h,$(wildcard tests/bpf/decode/*.bpf.c))
$(B)/tests/%.bpf.o: tests/bpf/decode/%.bpf.c | $(B)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@

$(B)/tests/decode: tests/bpf/decode/decode.c $(DECODE_SKELS)
	$(call msg,TEST-CC,$@)
	$(Q)$(CC) $(CFLAGS) -I$(B)/tests $(LDFLAGS) -o $@ $< $(BASE_LIBS) -lcmocka

$(B):
	$(Q)mkdir -p $@

-include $(wildcard $(B)/*.d $(B)/*/*.d $(B)/*/*/*.d)

# ---- set-up (Debian packages; idempotent) ----
BUILD_DEPS := make gcc g++ clang llvm libbpf-dev bpftool libelf-dev libdw-dev zlib1g-dev libzstd-dev libiberty-dev \
	libncurses-dev pkg-config libcmocka-dev libyajl-dev jq file util-linux groff-base tmux procps \
	libcap2-bin libclang-rt-dev libmicrohttpd-dev libgnutls28-dev libyaml-dev libcrypt-dev curl \
	prometheus openssl apache2-utils lintian dpkg-dev binutils man-db protobuf-compiler libxml2-utils \
	clang-format
VM_DEPS := qemu-system-x86 busybox-static cpio xz-utils zstd debootstrap kmod libdrm-tests libdrm-dev \
	ca-certificates
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# The benchmark also runs the seed's bpftrace script: make deps BENCH=1 installs Debian's bpftrace.
BENCH_DEPS := bpftrace

deps:
	$(Q)./tests/install-deps.sh $(BUILD_DEPS) $(VM_DEPS) $(if $(filter 1,$(BENCH)),$(BENCH_DEPS))
	$(Q)./tests/fetch-cupti-headers.sh deps/cupti

# ---- tests ----
test: test-unit test-san test-docs test-package test-tui test-exporter test-bpf test-vm fuzz

test-unit: $(UNIT_BINS) $(B)/tests/symfix/.done $(B)/tests/symbolize $(B)/gputop-bpf \
	$(B)/tests/perfetto-example $(B)/tests/trace-render
	$(Q)tests/layering.sh
	$(Q)tests/long-functions.sh
	$(Q)tests/run-unit.sh $(UNIT_BINS)
	$(Q)tests/replay/text.sh $(B)/gputop-bpf examples/mockgpu-7.3.jsonl
	$(Q)tests/cli.sh $(B)/gputop-bpf examples/mockgpu-7.3.jsonl
	$(Q)tests/symbols/live.sh $(B)/tests/symbolize $(B)/tests/symfix
	$(Q)tests/perfetto/run.sh $(B)/tests/perfetto-example $(B)/gputop-bpf
	$(Q)tests/stacks/replay.sh $(B)/gputop-bpf
	$(Q)# the CUPTI library is never sanitized (see CUPTI_CFLAGS): its suite runs in the default build only
	$(Q)$(if $(SAN_FLAGS),true,$(MAKE) --no-print-directory test-cupti)

# The CUPTI companion library on the stand-ins, through its test build's hooks (no root).
test-cupti: $(CUPTI_LIB) $(B)/cupti-fake/libcupti.so $(B)/cuda/cupti-client
	$(Q)$(MAKE) --no-print-directory TEST_HOOKS=1 $(B)-test/cupti/libgputop-cupti.so
	$(Q)tests/cupti/run.sh $(B)-test/cupti/libgputop-cupti.so $(CUPTI_LIB) $(B)

# The C lines changed since tests/format-base follow .clang-format (tests/format-check.sh).
format-check:
	$(Q)tests/format-check.sh

test-docs: $(B)/gputop-bpf
	$(Q)tests/docs.sh $(B)/gputop-bpf

# The interface under tmux, replaying the example recording (no root needed): the default,
# sanitizer and ThreadSanitizer builds' passes at once (tests/tui/passes.sh).
test-tui: $(B)/gputop-bpf
	$(Q)$(MAKE) --no-print-directory SAN=1 build/san/gputop-bpf
	$(Q)$(MAKE) --no-print-directory TSAN=1 build/tsan/gputop-bpf
	$(Q)rm -rf build/tsan/reports && mkdir -p build/tsan/reports
	$(Q)# without address randomization: clang 14's ThreadSanitizer refuses the layouts of mmap_rnd_bits 32
	$(Q)tests/tui/passes.sh examples/mockgpu-7.3.jsonl examples/nvidia-h100.jsonl $(B)/gputop-bpf \
		build/san/gputop-bpf \
		"TSAN_OPTIONS=log_path=$(CURDIR)/build/tsan/reports/tsan TSAN_REPORTS=$(CURDIR)/build/tsan/reports SETARCH=1 build/tsan/gputop-bpf"

# The metrics endpoint serving the example recording: promtool, a real Prometheus, bad requests.
test-exporter: $(B)/gputop-bpf
	$(Q)$(MAKE) --no-print-directory SAN=1 build/san/gputop-bpf
	$(Q)tests/exporter/run.sh examples/mockgpu-7.3.jsonl $(B)/gputop-bpf build/san/gputop-bpf

test-san:
	$(Q)$(MAKE) --no-print-directory SAN=1 test-unit

# Each fuzz target for FUZZ_SECONDS from its seed corpus (tests/fuzz/corpus); a finding fails.
fuzz:
	$(Q)$(MAKE) --no-print-directory FUZZ=1 $(addprefix build/fuzz/fuzz/,$(FUZZ_TARGETS))
	$(Q)tests/fuzz/run.sh build/fuzz/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The CUDA suite counts ioctls on /dev/null as NVIDIA's: a test build (TEST_HOOKS=1) does that.
test-bpf: $(B)/gputop-bpf $(B)/cuda/cuda-client $(B)/cuda/launch-loop $(B)/cuda-nofp/cuda-client $(B)/nvml/libnvidia-ml.so.1 \
	$(B)/nvml/no-mig/libnvidia-ml.so.1 $(B)/tests/fd-census $(B)/tests/decode $(B)/tests/kit \
	$(B)/tests/cupti-probe $(CUPTI_LIB) $(B)/cupti-fake/libcupti.so $(B)/cuda/cupti-client $(B)/tests/hostile-corpus
	$(Q)$(MAKE) --no-print-directory SAN=1 build/san/gputop-bpf
	$(Q)$(MAKE) --no-print-directory TEST_HOOKS=1 build/default-test/gputop-bpf
	$(Q)$(MAKE) --no-print-directory SAN=1 TEST_HOOKS=1 build/san-test/gputop-bpf
	$(Q)$(B)/tests/decode
	$(Q)$(B)/tests/kit
	$(Q)tests/bpf/run.sh $(B)/gputop-bpf build/san/gputop-bpf
	$(Q)tests/bpf/cuda.sh $(B)/cuda build/default-test/gputop-bpf build/san-test/gputop-bpf
	$(Q)tests/bpf/trace.sh $(B)/cuda $(B)/gputop-bpf
	$(Q)tests/bpf/nvml.sh $(B)/nvml $(B)/gputop-bpf build/san/gputop-bpf
	$(Q)tests/bpf/fd-census.sh $(B)/tests/fd-census 200 50
	$(Q)tests/bpf/privileges.sh $(B)/gputop-bpf examples/mockgpu-7.3.jsonl
	$(Q)tests/bpf/tui-capture.sh $(B)/gputop-bpf $(B)
	$(Q)tests/bpf/stacks-key.sh $(B)/cuda $(B)/gputop-bpf
	$(Q)tests/bpf/exit.sh $(B)/cuda $(B)/gputop-bpf
	$(Q)tests/bpf/sym-child.sh $(B)/cuda build/default-test/gputop-bpf
	$(Q)tests/bpf/hostile-corpus.sh $(B)/cuda $(B)/tests/hostile-corpus build/default-test/gputop-bpf
	$(Q)tests/bpf/hostile-maps.sh $(B)/cuda $(B)/gputop-bpf
	$(Q)tests/bpf/cupti.sh $(B)/tests/cupti-probe $(CUPTI_LIB) $(B) $(B)/gputop-bpf
	$(Q)tests/bpf/cupti.sh $(B)/tests/cupti-probe $(CUPTI_LIB) $(B) build/san/gputop-bpf

# The VM's scenario holds the scheduler's programs (GPUTOP_TEST_SPIN_NS) and points the NVIDIA
# collector at stand-ins: a static test build (TEST_HOOKS=1); the endpoint is the sanitizer build.
test-vm: $(B)/gputop-bpf
	$(Q)$(MAKE) --no-print-directory STATIC=1 TEST_HOOKS=1 build/static-test/gputop-bpf
	$(Q)$(MAKE) --no-print-directory SAN=1 build/san/gputop-bpf
	$(Q)GPUTOP_HTTP=build/san/gputop-bpf tests/vm/run.sh build/static-test/gputop-bpf

# Per-event BPF cost and the monitor's own CPU and memory, in the VM (not a test).
bench:
	$(Q)command -v bpftrace >/dev/null || { echo "bench: bpftrace is missing: run 'make deps BENCH=1'"; exit 1; }
	$(Q)$(MAKE) --no-print-directory STATIC=1 build/static/gputop-bpf build/static/bpf_cost
	$(Q)bench/run.sh build/static/gputop-bpf build/static/bpf_cost
	$(Q)echo "== Replay at scale (this host)"
	$(Q)$(MAKE) --no-print-directory bench-replay

# Replay at scale: 5,000 rings and 50,000 processes in every table a derived table reads (not a test;
# python3; docs/benchmark.md). Also the end of make bench.
bench-replay: $(B)/gputop-bpf $(B)/read_bench
	$(Q)bench/replay-scale.sh $(B)/gputop-bpf

# The scheduler collector's two designs' per-event work on this CPU (docs/benchmark.md; root).
cpu-cost: $(B)/cpu_cost
	$(Q)$(B)/cpu_cost $(or $(COST_EVENTS),2000000) $(or $(COST_ROUNDS),5)
	$(Q)$(B)/cpu_cost --uprobe $(or $(COST_EVENTS),2000000) $(or $(COST_ROUNDS),5)

# The metrics endpoint for SOAK_MINUTES (60) at a steady job rate, scraped every second (7.3 VM).
soak: $(B)/gputop-bpf
	$(Q)$(MAKE) --no-print-directory STATIC=1 build/static/gputop-bpf
	$(Q)bench/soak.sh build/static/gputop-bpf $(B)/gputop-bpf

# Regenerates examples/mockgpu-7.3.jsonl: about 40 s of mock GPU work in the 7.3 VM, recorded.
example-recording:
	$(Q)$(MAKE) --no-print-directory STATIC=1 build/static/gputop-bpf
	$(Q)tests/vm/fetch.sh >/dev/null
	$(Q)tests/vm/boot.sh k7 build/static/gputop-bpf build/example.log gputop.scenario=example >/dev/null
	$(Q)sed -n '/^@@BEGIN example$$/,/^@@END example$$/p' build/example.log | grep '^{' > examples/mockgpu-7.3.jsonl
	$(Q)wc -l examples/mockgpu-7.3.jsonl

# Regenerates examples/mockgpu-7.3.pftrace (12 s of the same work, --trace) and its picture in docs/:
# TRACE_WINDOW_MS of it (from, to, in ms) drawn as --trace FILE.svg draws (tests/perfetto/run.sh checks it).
TRACE_WINDOW_MS ?= 6600 6900
example-trace: $(B)/tests/trace-render
	$(Q)$(MAKE) --no-print-directory STATIC=1 build/static/gputop-bpf
	$(Q)tests/vm/fetch.sh >/dev/null
	$(Q)tests/vm/boot.sh k7 build/static/gputop-bpf build/example-trace.log gputop.scenario=example-trace >/dev/null
	$(Q)sed -n '/^@@BEGIN example-trace-b64$$/,/^@@END example-trace-b64$$/p' build/example-trace.log | \
		sed '1d;$$d' | tr -d '\r' | base64 -d > examples/mockgpu-7.3.pftrace
	$(Q)grep -a 'gputop-bpf: trace' build/example-trace.log || true
	$(Q)$(B)/tests/trace-render examples/mockgpu-7.3.pftrace docs/trace-mockgpu.svg $(TRACE_WINDOW_MS)
	$(Q)ls -l examples/mockgpu-7.3.pftrace docs/trace-mockgpu.svg

# The fixture trees' GPUs (amdgpu, i915, xe, vkms) as the monitor sees them (root: BPF starts too).
example-sysfs-recording: $(B)/gputop-bpf
	$(Q)tests/fixtures/sysfs/record-example.sh $(B)/gputop-bpf examples/sysfs-fixtures.jsonl

VERSION := $(shell sed -n 's/.*GPUTOP_VERSION "\(.*\)"/\1/p' core/version.h)

# A Debian binary package of the default (dynamic) build: build/deb/gputop-bpf_$(VERSION)_<arch>.deb.
deb: $(B)/gputop-bpf $(CUPTI_LIB)
	$(Q)dist/deb/build.sh $(B)/gputop-bpf $(VERSION) build/deb $(CUPTI_LIB)

# The package: lintian, its contents, no test hooks in the product; as root also installed with
# dpkg -i, run from /usr/bin and purged; the default and static binaries have no test hooks either.
test-package: $(B)/gputop-bpf $(CUPTI_LIB)
	$(Q)$(MAKE) --no-print-directory STATIC=1 build/static/gputop-bpf
	$(Q)tests/package/run.sh $(B)/gputop-bpf $(VERSION) $(CUPTI_LIB) build/static/gputop-bpf

static-check: format-check
	$(Q)$(MAKE) --no-print-directory STATIC=1
	$(Q)file gputop-bpf | grep -q 'statically linked' && echo "gputop-bpf: statically linked"

install: gputop-bpf $(CUPTI_LIB)
	install -D -m 0755 gputop-bpf $(DESTDIR)$(PREFIX)/bin/gputop-bpf
	install -D -m 0644 $(CUPTI_LIB) $(DESTDIR)$(PREFIX)/lib/gputop-bpf/libgputop-cupti.so
	install -D -m 0644 man/gputop-bpf.8 $(DESTDIR)$(PREFIX)/share/man/man8/gputop-bpf.8
	install -d $(DESTDIR)$(PREFIX)/share/gputop-bpf/themes
	install -m 0644 themes/*.theme $(DESTDIR)$(PREFIX)/share/gputop-bpf/themes/
	install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR)
	sed 's|@BINDIR@|$(PREFIX)/bin|' dist/systemd/gputop-bpf.service.in > $(DESTDIR)$(SYSTEMD_UNIT_DIR)/gputop-bpf.service
	chmod 0644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/gputop-bpf.service
	install -D -m 0644 dist/grafana/gputop-bpf.json $(DESTDIR)$(PREFIX)/share/gputop-bpf/grafana/gputop-bpf.json
	install -d $(DESTDIR)$(PREFIX)/share/gputop-bpf/examples
	install -m 0644 examples/*.jsonl $(DESTDIR)$(PREFIX)/share/gputop-bpf/examples/
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi

clean:
	rm -rf build gputop-bpf
