# gputop-bpf. `make V=1` shows the commands; `make STATIC=1` links one static binary;
# `make PORTABLE=1` links every library statically but the C library (glibc >= the build
# machine's), for machines without libbpf that need dlopen (NVML); `make SAN=1` builds with
# clang's AddressSanitizer and UBSan, float-cast-overflow included (into build/san); `make TSAN=1`
# with its ThreadSanitizer (build/tsan: the replay's reader threads); `make fuzz` runs the
# libFuzzer targets of tests/fuzz for FUZZ_SECONDS each (build/fuzz).
.DELETE_ON_ERROR:
.SECONDARY:
.SUFFIXES:

CC ?= gcc
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
STATIC_LIBS := -Wl,-Bstatic -lbpf -lelf -lz -lzstd -ljson-c -lncursesw -ltinfo -Wl,-Bdynamic
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

# yajl reads recordings (an event parser: no tree per line); Debian's static archive is libyajl_s.a.
ifdef STATIC_LIBS
LIBS := $(STATIC_LIBS) -l:libyajl_s.a -ldl -lpthread -lm
else ifeq ($(STATIC),1)
LIBS := $(shell $(PKG_CONFIG) $(PKG_FLAGS) --libs libbpf libelf json-c ncursesw 2>/dev/null || echo -lbpf -lelf -lz -ljson-c -lncursesw -ltinfo) -l:libyajl_s.a -ldl -lpthread -lm
else
LIBS := $(shell $(PKG_CONFIG) $(PKG_FLAGS) --libs libbpf libelf json-c ncursesw 2>/dev/null || echo -lbpf -lelf -lz -ljson-c -lncursesw -ltinfo) -lyajl -ldl -lpthread -lm
ifneq ($(STATIC),1)
LIBS += -lmicrohttpd
endif
endif
ARCH_INCLUDE := /usr/include/$(shell gcc -dumpmachine 2>/dev/null || $(CC) -dumpmachine)
# The kernel's name for the target architecture, for bpf_tracing.h (PT_REGS, BPF_PROG).
ARCH ?= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/i.86/x86/' -e 's/aarch64.*/arm64/' \
	-e 's/arm.*/arm/' -e 's/ppc64.*/powerpc/' -e 's/riscv64/riscv/' -e 's/s390x/s390/' \
	-e 's/loongarch64/loongarch/' -e 's/mips.*/mips/')
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Werror -I$(B) $(SAN_FLAGS) $(CFLAGS_VARIANT) -D_GNU_SOURCE
LDFLAGS += $(SAN_FLAGS)
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(ARCH) -I$(ARCH_INCLUDE) -Ibpf -Wall -Werror

BPF_SRCS := $(wildcard bpf/*.bpf.c)
SKELS := $(patsubst bpf/%.bpf.c,$(B)/%.skel.h,$(BPF_SRCS))
LIB_SRCS := $(wildcard model/*.c output/*.c collectors/*.c tui/*.c) $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJS := $(patsubst %.c,$(B)/%.o,$(LIB_SRCS))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRCS))

.PHONY: all gputop-bpf clean deps soak test test-exporter test-unit test-san test-docs test-bpf test-vm install static-check bench test-tui example-recording fuzz

all: gputop-bpf

# The binary at the top is a copy of the last variant built.
gputop-bpf: $(B)/gputop-bpf
	$(Q)rm -f $@ && cp $< $@

$(B)/gputop-bpf: $(B)/src/main.o $(LIB_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(B)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) | $(B)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(B)/%.bpf.o: bench/%.bpf.c | $(B)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(B)/%.skel.h: $(B)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst .skel.h,,$(notdir $@))_bpf > $@

$(B)/themes_builtin.h: $(wildcard themes/*.theme) tui/gen-themes.sh | $(B)
	$(call msg,GEN,$@)
	$(Q)sh tui/gen-themes.sh > $@

$(B)/%.o: %.c $(SKELS) $(B)/themes_builtin.h $(wildcard */*.h) | $(B)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

# Benchmark helper (static, runs inside the VM).
$(B)/bpf_cost: bench/bpf_cost.c $(B)/empty.skel.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBS)

# The recording reader alone, timed (bench/replay-scale.sh).
$(B)/read_bench: bench/read_bench.c $(LIB_OBJS)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(B)/tests/%: tests/unit/%.c $(LIB_OBJS)
	$(call msg,TEST-CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) -lcmocka

# libFuzzer targets (make FUZZ=1): each links the library with one LLVMFuzzerTestOneInput.
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 60
$(B)/fuzz/%: tests/fuzz/%.c $(LIB_OBJS)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ $(LIBS)

# The NVIDIA collector's tests: a stand-in libcuda.so.1 and a client of known behaviour.
$(B)/cuda/libcuda.so.1: tests/cuda/fake_libcuda.c | $(B)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -O2 -fPIC -shared -fno-ipa-icf -fcf-protection=full -Wall -Wextra -Werror -Wl,-soname,libcuda.so.1 -o $@ $<

$(B)/cuda/cuda-client: tests/cuda/cuda-client.c $(B)/cuda/libcuda.so.1
	$(call msg,CC,$@)
	$(Q)$(CC) -O2 -Wall -Wextra -Werror -o $@ $< -L$(B)/cuda -l:libcuda.so.1 -lpthread

# The memory collector's two ways of finding a device's open files, compared (tests/bpf, bench).
$(B)/tests/fd-census: tests/bpf/fd-census.c $(LIB_OBJS)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# Decoding tests: the collectors' BPF handlers on synthetic records of every layout (tests/bpf/decode).
DECODE_SKELS := $(patsubst tests/bpf/decode/%.bpf.c,$(B)/tests/%.skel.h,$(wildcard tests/bpf/decode/*.bpf.c))
$(B)/tests/%.bpf.o: tests/bpf/decode/%.bpf.c tests/bpf/decode/decode.h $(wildcard bpf/*.h bpf/*.bpf.c) | $(B)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(B)/tests/decode: tests/bpf/decode/decode.c $(DECODE_SKELS)
	$(call msg,TEST-CC,$@)
	$(Q)$(CC) $(CFLAGS) -I$(B)/tests $(LDFLAGS) -o $@ $< $(LIBS) -lcmocka

$(B):
	$(Q)mkdir -p $@

# ---- set-up (Debian packages; idempotent) ----
BUILD_DEPS := make gcc clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev libzstd-dev \
	libncurses-dev pkg-config libcmocka-dev libjson-c-dev libyajl-dev jq file util-linux groff-base tmux procps \
	libcap2-bin libclang-rt-dev libmicrohttpd-dev curl prometheus
VM_DEPS := qemu-system-x86 busybox-static cpio xz-utils zstd debootstrap kmod libdrm-tests libdrm-dev \
	ca-certificates
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

deps:
	$(Q)./tests/install-deps.sh $(BUILD_DEPS) $(VM_DEPS)

# ---- tests ----
test: test-unit test-san test-docs test-tui test-exporter test-bpf test-vm fuzz

test-unit: $(UNIT_BINS) $(B)/gputop-bpf
	$(Q)tests/run-unit.sh $(UNIT_BINS)

test-docs: $(B)/gputop-bpf
	$(Q)tests/docs.sh $(B)/gputop-bpf

# The interface under tmux, replaying the example recording (no root needed).
test-tui: $(B)/gputop-bpf
	$(Q)$(MAKE) --no-print-directory SAN=1 build/san/gputop-bpf
	$(Q)tests/tui/run.sh $(B)/gputop-bpf examples/mockgpu-7.3.jsonl examples/nvidia-h100.jsonl
	$(Q)tests/tui/run.sh build/san/gputop-bpf examples/mockgpu-7.3.jsonl examples/nvidia-h100.jsonl
	$(Q)$(MAKE) --no-print-directory TSAN=1 build/tsan/gputop-bpf
	$(Q)rm -rf build/tsan/reports && mkdir -p build/tsan/reports
	$(Q)# without address randomization: clang 14's ThreadSanitizer refuses the layouts of mmap_rnd_bits 32
	$(Q)TSAN_OPTIONS=log_path=$(CURDIR)/build/tsan/reports/tsan TSAN_REPORTS=$(CURDIR)/build/tsan/reports \
		setarch $$(uname -m) -R tests/tui/run.sh build/tsan/gputop-bpf examples/mockgpu-7.3.jsonl \
		examples/nvidia-h100.jsonl

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

test-bpf: $(B)/gputop-bpf $(B)/cuda/cuda-client $(B)/tests/fd-census $(B)/tests/decode
	$(Q)$(MAKE) --no-print-directory SAN=1 build/san/gputop-bpf
	$(Q)$(B)/tests/decode
	$(Q)tests/bpf/run.sh $(B)/gputop-bpf build/san/gputop-bpf
	$(Q)tests/bpf/cuda.sh $(B)/cuda $(B)/gputop-bpf build/san/gputop-bpf
	$(Q)tests/bpf/fd-census.sh $(B)/tests/fd-census 200 50
	$(Q)tests/bpf/privileges.sh $(B)/gputop-bpf examples/mockgpu-7.3.jsonl

test-vm: $(B)/gputop-bpf
	$(Q)$(MAKE) --no-print-directory STATIC=1 build/static/gputop-bpf
	$(Q)$(MAKE) --no-print-directory SAN=1 build/san/gputop-bpf
	$(Q)GPUTOP_HTTP=build/san/gputop-bpf tests/vm/run.sh build/static/gputop-bpf

# Per-event BPF cost and the monitor's own CPU and memory, in the VM (not a test).
# The benchmark also runs the seed's bpftrace script: Debian's bpftrace, installed here.
bench:
	$(Q)command -v bpftrace >/dev/null || { apt-get update -qq && apt-get install -y -qq bpftrace; }
	$(Q)$(MAKE) --no-print-directory STATIC=1 build/static/gputop-bpf build/static/bpf_cost
	$(Q)bench/run.sh build/static/gputop-bpf build/static/bpf_cost

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

static-check:
	$(Q)$(MAKE) --no-print-directory STATIC=1
	$(Q)file gputop-bpf | grep -q 'statically linked' && echo "gputop-bpf: statically linked"

install: gputop-bpf
	install -D -m 0755 gputop-bpf $(DESTDIR)$(PREFIX)/sbin/gputop-bpf
	install -D -m 0644 man/gputop-bpf.8 $(DESTDIR)$(PREFIX)/share/man/man8/gputop-bpf.8
	install -d $(DESTDIR)$(PREFIX)/share/gputop-bpf/themes
	install -m 0644 themes/*.theme $(DESTDIR)$(PREFIX)/share/gputop-bpf/themes/
	install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR)
	sed 's|@SBINDIR@|$(PREFIX)/sbin|' dist/systemd/gputop-bpf.service.in > $(DESTDIR)$(SYSTEMD_UNIT_DIR)/gputop-bpf.service
	chmod 0644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/gputop-bpf.service
	install -D -m 0644 dist/grafana/gputop-bpf.json $(DESTDIR)$(PREFIX)/share/gputop-bpf/grafana/gputop-bpf.json
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi

clean:
	rm -rf build gputop-bpf
