/*
 * Test harness of the tile-API tests: "ok N - what" lines, a final
 * "N passed, M failed", a deterministic random generator (same numbers on
 * every host and on riscv64) and an optional dump of every output buffer,
 * which tests/api/run.sh compares byte for byte between the two backends.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TL_API_TEST_HARNESS_HPP
#define TL_API_TEST_HARNESS_HPP

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace tltest {

class Harness {
public:
    /* argv: [--dump FILE] [--seed N] [--verbose] */
    Harness(int argc, char **argv)
    {
        for (int i = 1; i < argc; ++i) {
            if (!std::strcmp(argv[i], "--dump") && i + 1 < argc) {
                dump_ = std::fopen(argv[++i], "wb");
                if (!dump_) {
                    std::perror(argv[i]);
                    std::exit(2);
                }
            } else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) {
                seed = std::strtoull(argv[++i], nullptr, 0);
            } else if (!std::strcmp(argv[i], "--verbose")) {
                verbose = true;
            } else {
                std::fprintf(stderr, "usage: %s [--dump FILE] [--seed N] [--verbose]\n", argv[0]);
                std::exit(2);
            }
        }
    }
    ~Harness()
    {
        if (dump_) std::fclose(dump_);
    }

    bool check(bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)))
    {
        ++count_;
        if (!ok) ++failed_;
        std::printf("%s %d - ", ok ? "ok" : "not ok", count_);
        va_list ap;
        va_start(ap, fmt);
        std::vprintf(fmt, ap);
        va_end(ap);
        std::putchar('\n');
        std::fflush(stdout);
        return ok;
    }

    /* Appends "label\n<size>\n<bytes>" to the dump file, if any. */
    void dump(const char *label, const void *data, size_t n)
    {
        if (!dump_) return;
        std::fprintf(dump_, "%s\n%zu\n", label, n);
        std::fwrite(data, 1, n, dump_);
    }

    int finish()
    {
        std::printf("%d passed, %d failed\n", count_ - failed_, failed_);
        return failed_ ? 1 : 0;
    }

    uint64_t seed = 12345;
    bool verbose = false;

private:
    FILE *dump_ = nullptr;
    int count_ = 0, failed_ = 0;
};

/* splitmix64: the same sequence everywhere. */
class Rng {
public:
    explicit Rng(uint64_t seed) : s_(seed) {}
    uint64_t next()
    {
        uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t below(uint32_t n) { return n ? uint32_t(next() % n) : 0; }
    uint32_t range(uint32_t lo, uint32_t hi) { return lo + below(hi - lo + 1); } /* inclusive */
    void fill(void *p, size_t n)
    {
        auto *b = static_cast<uint8_t *>(p);
        for (size_t i = 0; i < n; ++i) b[i] = uint8_t(next());
    }
    std::vector<uint8_t> bytes(size_t n)
    {
        std::vector<uint8_t> v(n);
        fill(v.data(), n);
        return v;
    }

private:
    uint64_t s_;
};

/*
 * A buffer with guard bytes on both sides, to see that a store wrote nothing
 * outside its target.
 */
class Guarded {
public:
    static constexpr size_t kGuard = 256;
    explicit Guarded(size_t n, uint8_t fill = 0xA5) : n_(n), buf_(n + 2 * kGuard, fill), fill_(fill) {}
    uint8_t *data() { return buf_.data() + kGuard; }
    const uint8_t *data() const { return buf_.data() + kGuard; }
    size_t size() const { return n_; }
    bool guards_intact() const
    {
        for (size_t i = 0; i < kGuard; ++i) {
            if (buf_[i] != fill_ || buf_[kGuard + n_ + i] != fill_) return false;
        }
        return true;
    }

private:
    size_t n_;
    std::vector<uint8_t> buf_;
    uint8_t fill_;
};

/* First differing byte, or -1. */
inline long first_diff(const void *a, const void *b, size_t n)
{
    const auto *x = static_cast<const uint8_t *>(a);
    const auto *y = static_cast<const uint8_t *>(b);
    for (size_t i = 0; i < n; ++i) {
        if (x[i] != y[i]) return long(i);
    }
    return -1;
}

} // namespace tltest

#endif /* TL_API_TEST_HARNESS_HPP */
