/*
 * ML data-layout kernels on the TL tile API (include/tl/tile.hpp).
 * Header-only; the same source runs on the host backend and on riscv64.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_KERNELS_HPP
#define TL_KERNELS_HPP

#include "concat.hpp"
#include "copy.hpp"
#include "im2col.hpp"
#include "quant.hpp"
#include "transpose.hpp"

#endif /* TL_KERNELS_HPP */
