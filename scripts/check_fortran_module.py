#!/usr/bin/env python3
"""Check include/oxsparse.f90 against include/oxsparse.h and the built library.

Fortran compilers do not check bind(C) interfaces against C prototypes, so a
wrong kind (int64_t declared as integer(c_int), say) is a silent ABI bug. This
script compares the three views of the API:

  1. symbols: every bind(C, name="...") is exported by the .so (nm -D), and every
     exported oxsparse* symbol has an interface and a prototype in the header;
  2. constants: every enumerator and integer #define of the header exists in the
     module with the same value, and the module has no OXSPARSE_* constant the
     header lacks; CUDA's cudaDataType / libraryPropertyType values in the module
     are checked against library_types.h when it can be found;
  3. kinds: per function, the number of arguments, each argument's Fortran kind
     and value-vs-reference passing, and the result kind agree with the header:
     int64_t -> c_int64_t, size_t -> c_size_t, int and enums -> c_int,
     pointers and handles -> type(c_ptr), T* -> kind of T by reference,
     FILE* -> type(c_ptr), function-pointer typedefs -> type(c_funptr), by value.

Usage: scripts/check_fortran_module.py [--header H] [--module F90] [--lib SO]
                                       [--cuda-include DIR]
Defaults are relative to the repository. Exits 1 with a list of mismatches.
Python 3 standard library only.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREFIX = "oxsparse"

# C scalar types by value -> iso_c_binding kind. Enum typedefs are added from
# the header; pointer typedefs (handles, descriptors) map to c_ptr.
C_SCALARS = {
    "int": "c_int", "int32_t": "c_int", "unsigned": "c_int", "uint32_t": "c_int",
    "int64_t": "c_int64_t", "uint64_t": "c_int64_t", "size_t": "c_size_t",
    "float": "c_float", "double": "c_double", "char": "c_char",
    "cudaDataType": "c_int", "cudaDataType_t": "c_int",
    "libraryPropertyType": "c_int", "libraryPropertyType_t": "c_int",
    "cuComplex": "c_float_complex", "cuDoubleComplex": "c_double_complex",
}
C_POINTER_TYPEDEFS = {"cudaStream_t"}
# Fortran kinds that are the same kind on every platform we build for.
F_KIND_ALIASES = {"c_int32_t": "c_int"}


# ----------------------------------------------------------------------------- C side

def strip_c_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def eval_int(expr, known):
    """Evaluates a C or Fortran integer constant expression; None if it is not one."""
    expr = expr.strip()
    expr = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b",
                  lambda m: str(int(m.group(1), 0)), expr)
    expr = re.sub(r"_c_\w+\b|_\d+\b", "", expr)  # Fortran kind suffixes: 3_c_int
    names = {k.lower(): v for k, v in known.items()}

    def name(m):
        value = names.get(m.group(0).lower())
        return "None" if value is None else "(%d)" % value
    expr = re.sub(r"[A-Za-z_]\w*", name, expr)
    if "None" in expr or not re.fullmatch(r"[\d\s()+\-*/<>|&~^]*", expr) or not expr.strip():
        return None
    try:
        return int(eval(expr.replace("/", "//"), {"__builtins__": {}}, {}))
    except Exception:
        return None


def parse_enums(text, known, enum_types=None):
    """Enumerators of every enum in text (comments stripped) into known; returns
    {type name: [enumerator names]}."""
    found = {}
    pattern = r"(typedef\s+)?enum\s*(\w+)?\s*\{(.*?)\}\s*(\w+)?\s*;"
    for m in re.finditer(pattern, text, flags=re.S):
        type_name = m.group(4) or m.group(2) or "<anonymous>"
        names, nxt = [], 0
        for item in m.group(3).split(","):
            item = item.strip()
            if not item:
                continue
            ident, _, value = item.partition("=")
            ident = ident.strip()
            if value.strip():
                nxt = eval_int(value, known)
                if nxt is None:
                    raise SystemExit("cannot evaluate %s = %s" % (ident, value.strip()))
            known[ident] = nxt
            names.append(ident)
            nxt += 1
        found[type_name] = names
        if m.group(2):
            found[m.group(2)] = names
        if enum_types is not None:
            enum_types.update(n for n in (m.group(2), m.group(4)) if n)
    return found


def split_top_level(text, sep=","):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts]


class Header:
    def __init__(self, path):
        text = strip_c_comments(open(path).read())
        self.constants = {}      # name -> value, enumerators and #defines
        self.enum_types = set()
        self.ptr_types = set(C_POINTER_TYPEDEFS)
        self.int_types = dict(C_SCALARS)
        parse_enums(text, self.constants, self.enum_types)
        for name in self.enum_types:
            self.int_types[name] = "c_int"
        for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+([^\n]+)$", text, flags=re.M):
            value = eval_int(m.group(2), self.constants)
            if value is not None:
                self.constants[m.group(1)] = value
        body = re.sub(r"^[ \t]*#[^\n]*$", " ", text, flags=re.M)
        body = re.sub(r'extern\s*"C"\s*\{', " ", body)  # its closing brace is dropped below
        body = re.sub(r"\{[^{}]*\}", " ", body)      # enum/struct bodies
        self.funptr_types = set()   # typedefs of function pointers (callbacks) -> c_funptr
        for stmt in body.split(";"):
            stmt = " ".join(stmt.split())
            m = re.fullmatch(r"typedef .*\(\s*\*\s*(\w+)\s*\)\s*\(.*\)", stmt)
            if m:
                self.funptr_types.add(m.group(1))
                continue
            m = re.fullmatch(r"typedef (.+?)(\w+)", stmt)
            if m:
                target = m.group(1).replace("const", "").replace("struct", "").split()
                if "*" in m.group(1):
                    self.ptr_types.add(m.group(2))
                elif target and target[-1] in self.int_types:
                    self.int_types[m.group(2)] = self.int_types[target[-1]]
                elif target and target[-1] in self.ptr_types:
                    self.ptr_types.add(m.group(2))
        self.functions = {}     # name -> (result, [(kind, by_value, c text)])
        for stmt in body.split(";"):
            stmt = " ".join(stmt.replace("{", " ").replace("}", " ").split())
            m = re.fullmatch(r"(.*?)\b(%s\w*)\s*\((.*)\)(?:\s*__attribute__.*)?" % PREFIX, stmt)
            if not m or m.group(1).strip().startswith("typedef") or "(*" in stmt:
                continue
            ret = self.classify(m.group(1), is_result=True)[0]
            args = m.group(3).strip()
            params = [] if args in ("", "void") else split_top_level(args)
            self.functions[m.group(2)] = (ret, [self.classify(p) + (p,) for p in params])

    def classify(self, decl, is_result=False):
        """C declaration -> (Fortran kind or None, passed by value)."""
        stars = decl.count("*")
        words = [w for w in re.findall(r"\w+", decl)
                 if w not in ("const", "struct", "enum", "volatile", "restrict")
                 and not re.fullmatch(r"[A-Z0-9_]*(API|DEPRECATED|OXSPARSE)[A-Z0-9_]*", w)]
        if not is_result and len(words) > 1:
            words = words[:-1]                              # drop the parameter name
        base = words[-1] if words else "?"
        if base in self.funptr_types and stars == 0:
            return ("c_funptr", True)                        # a callback, by value
        if base == "FILE" and stars == 1:
            return ("c_ptr", True)                           # C stdio's FILE*
        if base in self.ptr_types:
            base, stars = "void", stars + 1
        if base == "void" and stars == 0:
            return (None, True)
        if base != "void" and base not in self.int_types:
            return ("<unknown C type %s>" % base, stars == 0)
        if stars == 0:
            return (self.int_types[base], True)
        if stars == 1 and base == "void":
            return ("c_ptr", True)                           # void*, handles
        if stars == 1 and base == "char":
            return ("c_ptr", True)                           # const char* in or out
        if stars == 1:
            return (self.int_types[base], False)             # T* out-parameter
        if stars == 2 and base == "void":
            return ("c_ptr", False)                          # void**, handle*
        return ("<unsupported %s>" % decl.strip(), False)


# ----------------------------------------------------------------------- Fortran side

def fortran_statements(path):
    """Free-form source -> list of statements, comments dropped, continuations joined."""
    stmts, cur = [], ""
    for line in open(path):
        out, quote = "", None
        for ch in line.rstrip("\n"):
            if quote:
                quote = None if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch == "!":
                break
            out += ch
        out = out.strip()
        if cur and out.startswith("&"):
            out = out[1:].strip()
        if out.endswith("&"):
            cur += out[:-1] + " "
            continue
        cur += out
        for part in split_top_level(cur, ";"):
            if part:
                stmts.append(part)
        cur = ""
    return stmts


def fortran_kind(type_spec):
    m = re.fullmatch(r"(type|integer|real|complex|character|logical)\s*(?:\((.*)\))?", type_spec.strip(), re.I)
    if not m:
        return "<unknown %s>" % type_spec
    base, arg = m.group(1).lower(), (m.group(2) or "").strip()
    if base == "type":
        return arg.lower()
    arg = re.sub(r"^(kind\s*=\s*)", "", arg, flags=re.I)
    arg = re.sub(r"^len\s*=\s*[^,]*,\s*(kind\s*=\s*)?", "", arg, flags=re.I)
    if re.fullmatch(r"kind\s*\(\s*\w+\s*\)", arg, re.I):
        return "c_int"                                      # kind(ENUMERATOR): enum kind
    kind = arg.lower() or "<default %s>" % base
    return F_KIND_ALIASES.get(kind, kind)


class Module:
    def __init__(self, path):
        self.constants = {}
        self.functions = {}     # C name -> (Fortran name, result kind, [(kind, by_value, name)])
        stmts = fortran_statements(path)
        next_value, i = 0, 0
        while i < len(stmts):
            s = stmts[i]
            m = re.match(r"enumerator\s*(?:::)?\s*(.*)$", s, re.I)
            if m:
                for item in split_top_level(m.group(1)):
                    ident, _, value = item.partition("=")
                    val = eval_int(value, self.constants) if value.strip() else next_value
                    self.constants[ident.strip()] = val
                    next_value = (val or 0) + 1
            elif re.match(r"enum\s*,\s*bind", s, re.I):
                next_value = 0                      # implicit values restart per enum
            elif re.search(r"\bparameter\b", s.split("::")[0], re.I) and "::" in s:
                for item in split_top_level(s.split("::", 1)[1]):
                    ident, _, value = item.partition("=")
                    self.constants[ident.strip()] = eval_int(value, self.constants)
            m = re.match(r"(?:(.*?)\s+)?(function|subroutine)\s+(\w+)\s*\((.*?)\)\s*(.*)$", s, re.I)
            if m and not s.lower().startswith("end"):
                i = self._interface(m, stmts, i)
            i += 1

    def _interface(self, m, stmts, i):
        prefix, what, fname, args, tail = m.groups()
        bind = re.search(r"bind\s*\(\s*c\s*,\s*name\s*=\s*['\"](\w+)['\"]\s*\)", tail, re.I)
        res = re.search(r"result\s*\(\s*(\w+)\s*\)", tail, re.I)
        result_var = (res.group(1) if res else fname).lower()
        dummies = [a.strip() for a in args.split(",") if a.strip()]
        decls = {}
        j = i + 1
        while j < len(stmts) and not re.match(r"end\s*(function|subroutine)?\b", stmts[j], re.I):
            s = stmts[j]
            if "::" in s and not re.match(r"import\b", s, re.I):
                spec, entities = s.split("::", 1)
                parts = split_top_level(spec)
                attrs = [a.lower().replace(" ", "") for a in parts[1:]]
                for ent in split_top_level(entities):
                    name = re.match(r"\w+", ent).group(0).lower()
                    array = "(" in ent or any(a.startswith("dimension") for a in attrs)
                    decls[name] = (fortran_kind(parts[0]), "value" in attrs and not array)
            j += 1
        if bind:
            if what.lower() == "subroutine":
                result = None
            elif result_var in decls:
                result = decls[result_var][0]
            else:
                result = fortran_kind(prefix) if prefix else "<undeclared result>"
            params = [decls.get(d.lower(), ("<undeclared>", False)) + (d,) for d in dummies]
            self.functions[bind.group(1)] = (fname, result, params)
        return j


# -------------------------------------------------------------------------- checking

def exported_symbols(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in "TtWi" and parts[2].startswith(PREFIX):
            syms.add(parts[2].split("@")[0])
    return syms


def find_library_types_h(cli):
    candidates = [cli] if cli else []
    for var in ("CUDA_HOME", "CUDA_PATH", "CUDAToolkit_ROOT"):
        if os.environ.get(var):
            candidates.append(os.path.join(os.environ[var], "include"))
    candidates += glob.glob(os.path.join(ROOT, ".venv-cuda/lib/python3*/site-packages/nvidia/cu13/include"))
    candidates.append("/usr/local/cuda/include")
    for d in candidates:
        if d and os.path.isfile(os.path.join(d, "library_types.h")):
            return os.path.join(d, "library_types.h")
    return None


def default_lib():
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    for profile in ("release", "debug"):
        path = os.path.join(target, profile, "liboxsparse.so")
        if os.path.isfile(path):
            return path
    return os.path.join(target, "release", "liboxsparse.so")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--header", default=os.path.join(ROOT, "include", "oxsparse.h"))
    ap.add_argument("--module", default=os.path.join(ROOT, "include", "oxsparse.f90"))
    ap.add_argument("--lib", default=None, help="liboxsparse.so (default: target/release)")
    ap.add_argument("--cuda-include", default=None, help="directory holding library_types.h")
    opts = ap.parse_args()
    lib = opts.lib or default_lib()

    errors, notes = [], []
    header, module = Header(opts.header), Module(opts.module)
    if not header.functions:
        errors.append("no %s* prototypes found in %s" % (PREFIX, opts.header))

    # 1. symbols
    if os.path.isfile(lib):
        symbols = exported_symbols(lib)
        for name in sorted(set(module.functions) - symbols):
            errors.append("interface %s: symbol not exported by %s" % (name, lib))
        for name in sorted(symbols - set(module.functions)):
            errors.append("exported symbol %s has no interface in the module" % name)
        for name in sorted(symbols - set(header.functions)):
            errors.append("exported symbol %s is not declared in the header" % name)
        for name in sorted(set(header.functions) - symbols):
            errors.append("header declares %s but the library does not export it" % name)
    else:
        errors.append("library %s not found (build it, or pass --lib)" % lib)
    for name in sorted(set(header.functions) - set(module.functions)):
        errors.append("header function %s has no interface in the module" % name)
    for name in sorted(set(module.functions) - set(header.functions)):
        errors.append("interface %s has no prototype in the header" % name)

    # 2. constants
    mod_consts = {k.upper(): v for k, v in module.constants.items()}
    for name, value in sorted(header.constants.items()):
        if name.upper() not in mod_consts:
            errors.append("constant %s = %d missing from the module" % (name, value))
        elif mod_consts[name.upper()] != value:
            errors.append("constant %s: header %d, module %s" % (name, value, mod_consts[name.upper()]))
    header_upper = {k.upper() for k in header.constants}
    for name in sorted(module.constants):
        if name.upper().startswith("OXSPARSE_") and name.upper() not in header_upper:
            errors.append("module constant %s is not in the header" % name)
    lt = find_library_types_h(opts.cuda_include)
    if lt:
        cuda = {}
        enums = parse_enums(strip_c_comments(open(lt).read()), cuda)
        for type_name in ("cudaDataType", "libraryPropertyType"):
            for name in enums.get(type_name, []):
                if name.upper() not in mod_consts:
                    notes.append("%s %s = %d not in the module" % (type_name, name, cuda[name]))
                elif mod_consts[name.upper()] != cuda[name]:
                    errors.append("constant %s: %s says %d, module %s"
                                  % (name, lt, cuda[name], mod_consts[name.upper()]))
    else:
        notes.append("library_types.h not found: CUDA constants not checked (use --cuda-include)")

    # 3. kinds
    for name in sorted(set(header.functions) & set(module.functions)):
        c_ret, c_params = header.functions[name]
        f_name, f_ret, f_params = module.functions[name]
        if c_ret != f_ret:
            errors.append("%s: result kind %s in the module, %s in the header" % (name, f_ret, c_ret))
        if len(c_params) != len(f_params):
            errors.append("%s: %d arguments in the module, %d in the header"
                          % (name, len(f_params), len(c_params)))
            continue
        for pos, (c, f) in enumerate(zip(c_params, f_params), 1):
            if c[0] is None or c[0].startswith("<"):
                errors.append("%s argument %d: cannot map C '%s'" % (name, pos, c[2]))
            elif (c[0], c[1]) != (f[0], f[1]):
                how = lambda v: "value" if v else "reference"
                errors.append("%s argument %d (%s): module has %s by %s, header '%s' needs %s by %s"
                              % (name, pos, f[2], f[0], how(f[1]), c[2], c[0], how(c[1])))

    for n in notes:
        print("note: " + n)
    if errors:
        print("check_fortran_module: %d mismatch(es) between %s, %s and %s:"
              % (len(errors), os.path.relpath(opts.module), os.path.relpath(opts.header), lib))
        for e in errors:
            print("  - " + e)
        return 1
    print("check_fortran_module: OK: %d functions, %d constants agree (%s)"
          % (len(module.functions), len(header.constants), os.path.basename(lib)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
