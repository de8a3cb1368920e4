/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* PCI addresses as the sources spell them: DRM's "0000:3b:00.0", NVML's "00000000:3B:00.0". */
#ifndef GPUTOP_PCI_H
#define GPUTOP_PCI_H

#include <stdbool.h>

/* Whether a and b name the same PCI function (domain width and case aside); false if either is no address. */
bool pci_same(const char *a, const char *b);

#endif
