#!/usr/bin/env python3
"""Checks the host code of a `qemu-riscv64 -d out_asm` log (x86-64 host) for
the AVX-SSE transition rule of patches/qemu-10.0/0018: in a TB with a 256-bit
(ymm) instruction, every call, indirect jump (goto_ptr) and chaining jump
(goto_tb, emitted as `jmp` to the next instruction until the TB is linked)
emitted after the first one directly follows a vzeroupper; a TB with no ymm
instruction has no vzeroupper (it is emitted as by stock QEMU).

    check_vzeroupper.py LOG OBJDUMP

Prints one line per violation (at most 20) and a summary; exits 1 on a
violation or when the log has no TB that uses ymm and makes a call (nothing
was checked), 0 otherwise.
"""
import re
import subprocess
import sys
import tempfile


def tbs(log_path):
    """Yields (header, code bytes) for each translated block of the log."""
    header, hexcode, in_code = None, [], False
    with open(log_path, errors='replace') as f:
        for line in f:
            if line.startswith('OUT: '):
                if header is not None:
                    yield header, bytes.fromhex(''.join(hexcode))
                header, hexcode, in_code = line.strip(), [], True
            elif line.startswith('PROLOGUE: '):
                if header is not None:
                    yield header, bytes.fromhex(''.join(hexcode))
                header, hexcode, in_code = None, [], False
            elif line.lstrip().startswith('data: '):
                in_code = False    # the constant pool after the code
            elif in_code and line.startswith('OBJD-H: '):
                hexcode.append(line[len('OBJD-H: '):].strip())
    if header is not None:
        yield header, bytes.fromhex(''.join(hexcode))


INSN = re.compile(r'^\s*([0-9a-f]+):\s+((?:[0-9a-f]{2} )+)\s*(.*)$')


def disassemble_all(objdump, blocks):
    """Disassembles every block's code with one objdump run (the blocks laid
    end to end: each starts at an instruction); one instruction list per block."""
    starts, offset = [], 0
    with tempfile.NamedTemporaryFile(suffix='.bin') as f:
        for code in blocks:
            starts.append(offset)
            f.write(code)
            offset += len(code)
        f.flush()
        out = subprocess.run([objdump, '-D', '-z', '-b', 'binary', '-m', 'i386:x86-64', f.name],
                             check=True, capture_output=True, text=True).stdout
    lists = [[] for _ in blocks]
    block = -1
    for line in out.splitlines():
        m = INSN.match(line)
        if not m:
            continue
        addr = int(m.group(1), 16)
        while block + 1 < len(starts) and addr >= starts[block + 1]:
            block += 1
        lists[block].append((addr - starts[block], m.group(2).split(), m.group(3).strip()))
    return lists


def exits(insn):
    """What kind of control transfer out of the TB insn is, or None."""
    addr, raw, text = insn
    mnemonic = text.split()[0] if text else ''
    if mnemonic.startswith('call'):
        return 'call'
    if mnemonic.startswith('jmp') and '*' in text:
        return 'indirect jmp'
    if raw == ['e9', '00', '00', '00', '00']:
        return 'goto_tb jmp'
    return None


def main():
    log_path, objdump = sys.argv[1], sys.argv[2]
    violations, checked, plain_with_vz = [], 0, 0
    blocks = [(header, code) for header, code in tbs(log_path) if code]
    tb_count = len(blocks)
    for (header, _), insns in zip(blocks, disassemble_all(objdump, [c for _, c in blocks])):
        uses_ymm = any('%ymm' in text for _, _, text in insns)
        has_vz = any(text.startswith('vzeroupper') for _, _, text in insns)
        if not uses_ymm:
            plain_with_vz += has_vz
            continue
        # Emission order is not execution order (the slow paths of memory
        # accesses come last), so once the TB has a ymm instruction every
        # call and exit must follow a vzeroupper directly (nops aside).
        seen_ymm, previous = False, ''
        for insn in insns:
            text = insn[2]
            if '%ymm' in text:
                seen_ymm = True
            kind = exits(insn)
            if kind and seen_ymm:
                if not previous.startswith('vzeroupper'):
                    violations.append(f'{header}: {kind} at +0x{insn[0]:x} ({text}) '
                                      f'after ymm code, preceded by {previous!r}, not vzeroupper')
                if kind == 'call':
                    checked += 1
            if text and not text.startswith(('nop', 'xchg   %ax,%ax', 'data16', 'cs nop')):
                previous = text
    for v in violations[:20]:
        print(v)
    if plain_with_vz:
        print(f'{plain_with_vz} TB(s) without ymm instructions have a vzeroupper')
    print(f'{tb_count} TBs; {checked} calls after ymm code checked; '
          f'{len(violations)} violation(s)')
    if checked == 0:
        print('no TB uses ymm and makes a call: nothing was checked')
        return 1
    return 1 if violations or plain_with_vz else 0


if __name__ == '__main__':
    sys.exit(main())
