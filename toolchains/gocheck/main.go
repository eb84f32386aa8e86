// Command gocheck-ssa is chanfuzz's Go front end for `manage.py gocheck`: it loads one
// Go file with Go's own parser and type checker (go/packages), builds its SSA form
// (golang.org/x/tools/go/ssa), and prints the functions of its package as JSON on stdout.
// The file is a `package main` program, or a test file whose `func TestXxx(t *testing.T)`
// functions are the entries (as GoBench and most bug reports give a deadlock). The model checker that decides the verdict is in Python
// (generator/gocheck); this program only translates, so that no Go is parsed by hand.
//
// A file that imports packages outside the standard library (golang.org/x/sync/errgroup,
// …) gets a go.mod beside it (module command-line-arguments, the path a lone file's
// package has anyway), `go mod tidy` resolves the imports through the module proxy, and
// those packages, with every package outside the standard library they import, are loaded
// from source: their functions are the program's too, interpreted like its own code, and
// their init functions run first (`inits`, in dependency order). With -module the file's
// directory lies in a module (runners/gocheck/frontend puts it back in a copy of the
// module it came from): the module's go.mod stands, and its own packages, internal ones
// too, are loaded from its source.
//
// Usage:
//
//	gocheck-ssa [-from-source] [-go GO] [-allow MODULE,...] [-opaque PREFIX,...]
//	            [-package] [-module] FILE.go
//
// Exit status: 0 with the JSON on stdout; 2 when the file does not parse or type-check
// (Go's own errors on stderr, one a line); 1 on a usage or internal error.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

type Operand map[string]any

type Instr struct {
	Op    string         `json:"op"`
	Res   string         `json:"res,omitempty"`
	Type  string         `json:"type,omitempty"`
	Line  int            `json:"line"`
	Args  []Operand      `json:"args,omitempty"`
	Extra map[string]any `json:"x,omitempty"`
}

type Block struct {
	Instrs []Instr `json:"instrs"`
	Succs  []int   `json:"succs"`
	Preds  []int   `json:"preds"`
}

type Function struct {
	Name     string   `json:"name"`
	Params   []string `json:"params"`
	Free     []string `json:"free"`
	Blocks   []Block  `json:"blocks"`
	Line     int      `json:"line"`
	Recover  int      `json:"recover"`
	External bool     `json:"external"`
	// Its file, when not the checked file: a function of a package loaded from source
	// besides it (the package's path, then the file's name).
	File string `json:"file,omitempty"`
}

type Output struct {
	File      string                       `json:"file"`
	Functions map[string]*Function         `json:"functions"`
	Methods   map[string]map[string]string `json:"methods"`
	Globals   map[string]string            `json:"globals"`
	// The test functions to run, in source order; empty for a package main program.
	Tests []string `json:"tests,omitempty"`
	// The init functions of the imported packages loaded from source, in the order Go
	// runs them (before the file's own init).
	Inits []string `json:"inits,omitempty"`
	// The modules those packages come from, as go.mod requires them.
	Modules []string `json:"modules,omitempty"`
}

var fset *token.FileSet

// dynamicTypes are the types encode saw made into interface values (MakeInterface).
var dynamicTypes []types.Type

// mainFile is the checked file's path, as positions name it.
var mainFile string

// checkedPath is what the checker calls the checked file's package, whatever its import
// path: Go's name for a package of files given by name.
const checkedPath = "command-line-arguments"

// mainPath is the checked file's package's import path: checkedPath, or in a module
// (-module) the path of the directory it was put in.
var mainPath = checkedPath

func line(pos token.Pos) int {
	if !pos.IsValid() {
		return 0
	}
	return fset.Position(pos).Line
}

// typeName is how the checker tells dynamic types apart: their names, but a function
// type's without its parameters' and results' names, which Go's identity ignores
// (`func() (n int)` is `func() int`; pond's tasks are asserted so).
func typeName(t types.Type) string {
	if sig, ok := t.(*types.Signature); ok {
		unnamed := func(tup *types.Tuple) *types.Tuple {
			vars := make([]*types.Var, tup.Len())
			for i := range vars {
				vars[i] = types.NewParam(token.NoPos, nil, "", tup.At(i).Type())
			}
			return types.NewTuple(vars...)
		}
		t = types.NewSignatureType(nil, nil, nil, unnamed(sig.Params()), unnamed(sig.Results()),
			sig.Variadic())
	}
	return t.String()
}

// addIntSize notes the width and signedness of an integer type (uint32: 32, unsigned),
// so that the checker wraps its arithmetic as Go does (a hash picking a shard).
func addIntSize(extra map[string]any, t types.Type) {
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 {
		return
	}
	bits := 64
	switch b.Kind() {
	case types.Int8, types.Uint8:
		bits = 8
	case types.Int16, types.Uint16:
		bits = 16
	case types.Int32, types.Uint32:
		bits = 32
	}
	extra["bits"] = bits
	extra["unsigned"] = b.Info()&types.IsUnsigned != 0
}

// typeClass names what the model checker must know of a type: channels, the sync
// objects it models, and the shapes that hold other values.
func typeClass(t types.Type) string {
	return typeClassAt(t, 0)
}

// typeClassAt stops at a depth, where a recursive type (a struct holding a slice of
// itself) would otherwise never end.
func typeClassAt(t types.Type, depth int) string {
	if depth > 8 {
		return "other"
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		obj := n.Obj()
		if obj.Pkg() != nil {
			full := obj.Pkg().Path() + "." + obj.Name()
			switch full {
			case "sync.WaitGroup", "sync.Mutex", "sync.RWMutex", "sync.Once", "sync.Cond",
				"context.Context",
				"time.Duration", "time.Time":
				return full
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Chan:
		return "chan"
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "bool"
		case u.Info()&types.IsInteger != 0:
			return "int"
		case u.Info()&types.IsString != 0:
			return "string"
		case u.Kind() == types.Float64 || u.Kind() == types.UntypedFloat:
			// float32 stays "basic": its arithmetic rounds to 32 bits at every step.
			return "float64"
		case u.Kind() == types.UntypedNil:
			return "nil"
		case u.Kind() == types.UnsafePointer:
			// A pointer (atomic.Pointer[T] keeps its value in one): nil when zero.
			return "ptr"
		}
		return "basic"
	case *types.Struct:
		parts := make([]string, u.NumFields())
		for i := 0; i < u.NumFields(); i++ {
			parts[i] = typeClassAt(u.Field(i).Type(), depth+1)
		}
		return "struct{" + strings.Join(parts, ";") + "}"
	case *types.Array:
		return fmt.Sprintf("array[%d]%s", u.Len(), typeClassAt(u.Elem(), depth+1))
	case *types.Pointer:
		return "ptr"
	case *types.Slice:
		return "slice:" + typeClassAt(u.Elem(), depth+1)
	case *types.Map:
		return "map"
	case *types.Signature:
		return "func"
	case *types.Interface:
		return "iface"
	case *types.Tuple:
		parts := make([]string, u.Len())
		for i := 0; i < u.Len(); i++ {
			parts[i] = typeClassAt(u.At(i).Type(), depth+1)
		}
		return "tuple(" + strings.Join(parts, ";") + ")"
	}
	return "other"
}

// holdsSync says whether a type can carry a channel, a function or a sync object, so
// that a value of it handed to code without a body would escape the model.
func holdsSync(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	c := typeClass(t)
	if strings.HasPrefix(c, "sync.") || c == "chan" || c == "func" || c == "context.Context" {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return holdsSync(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsSync(u.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Array:
		return holdsSync(u.Elem(), seen)
	case *types.Slice:
		return holdsSync(u.Elem(), seen)
	case *types.Map:
		return holdsSync(u.Elem(), seen) || holdsSync(u.Key(), seen)
	case *types.Chan:
		return true
	}
	return false
}

var errorType = types.Universe.Lookup("error").Type()

func funcName(f *ssa.Function) string {
	return f.String()
}

type encoder struct {
	fn *ssa.Function
}

func (e *encoder) operand(v ssa.Value) Operand {
	switch v := v.(type) {
	case *ssa.Const:
		op := Operand{"k": "const", "t": typeClass(v.Type())}
		if v.Value == nil {
			op["v"] = nil
			return op
		}
		switch v.Value.Kind() {
		case constant.Bool:
			op["v"] = constant.BoolVal(v.Value)
		case constant.Int:
			if i, ok := constant.Int64Val(v.Value); ok {
				op["v"] = i
			} else {
				op["v"] = "?"
			}
		case constant.String:
			op["v"] = constant.StringVal(v.Value)
		case constant.Float:
			if f, _ := constant.Float64Val(v.Value); op["t"] == "float64" && !math.IsInf(f, 0) {
				op["v"] = f // rounded to the nearest float64, as Go does for a typed constant
			} else {
				op["v"] = "?"
			}
		default:
			op["v"] = "?"
		}
		return op
	case *ssa.Parameter:
		for i, p := range e.fn.Params {
			if p == v {
				return Operand{"k": "param", "i": i, "t": typeClass(v.Type())}
			}
		}
	case *ssa.FreeVar:
		for i, p := range e.fn.FreeVars {
			if p == v {
				return Operand{"k": "free", "i": i, "t": typeClass(v.Type())}
			}
		}
	case *ssa.Function:
		return Operand{"k": "fn", "n": funcName(v)}
	case *ssa.Global:
		elem := v.Type().Underlying().(*types.Pointer).Elem()
		op := Operand{"k": "global", "n": v.String(), "t": typeClass(elem)}
		if types.Identical(elem, errorType) {
			// A library's error variables (io.EOF, context.Canceled) are set by its
			// initialisation, which the checker does not run: the checker must know
			// they are not nil.
			op["err"] = true
		}
		return op
	case *ssa.Builtin:
		return Operand{"k": "builtin", "n": v.Name()}
	}
	return Operand{"k": "reg", "n": v.Name()}
}

func (e *encoder) operands(vs []ssa.Value) []Operand {
	out := make([]Operand, len(vs))
	for i, v := range vs {
		out[i] = e.operand(v)
	}
	return out
}

func (e *encoder) call(c *ssa.CallCommon) map[string]any {
	x := map[string]any{}
	if c.IsInvoke() {
		x["mode"] = "invoke"
		x["method"] = c.Method.Name()
		x["recv"] = e.operand(c.Value)
		x["recvtype"] = typeClass(c.Value.Type())
		if n, ok := types.Unalias(c.Value.Type()).(*types.Named); ok && n.Obj().Pkg() != nil {
			x["iface"] = n.Obj().Pkg().Path() + "." + n.Obj().Name()
		}
	} else {
		x["mode"] = "call"
		x["callee"] = e.operand(c.Value)
		if f := c.StaticCallee(); f != nil {
			x["static"] = funcName(f)
			if f.Pkg != nil && f.Pkg.Pkg != nil {
				x["pkg"] = f.Pkg.Pkg.Path()
			} else if f.Object() != nil && f.Object().Pkg() != nil {
				x["pkg"] = f.Object().Pkg().Path()
			}
			x["external"] = len(f.Blocks) == 0
		}
	}
	escapes := false
	for _, a := range c.Args {
		if holdsSync(a.Type(), map[types.Type]bool{}) {
			escapes = true
		}
	}
	x["escapes"] = escapes
	x["args"] = e.operands(c.Args)
	return x
}

func (e *encoder) instr(in ssa.Instruction) (Instr, bool) {
	out := Instr{Line: line(in.Pos())}
	if v, ok := in.(ssa.Value); ok {
		out.Res = v.Name()
		out.Type = typeClass(v.Type())
	}
	switch in := in.(type) {
	case *ssa.DebugRef:
		return out, false
	case *ssa.MakeChan:
		out.Op = "MakeChan"
		out.Args = e.operands([]ssa.Value{in.Size})
		out.Extra = map[string]any{"name": varName(in)}
	case *ssa.Send:
		out.Op = "Send"
		out.Args = e.operands([]ssa.Value{in.Chan, in.X})
	case *ssa.UnOp:
		out.Op = "UnOp"
		out.Args = e.operands([]ssa.Value{in.X})
		out.Extra = map[string]any{"op": in.Op.String(), "commaok": in.CommaOk}
		if in.Op == token.ARROW {
			out.Extra["elem"] = typeClass(in.X.Type().Underlying().(*types.Chan).Elem())
		}
	case *ssa.BinOp:
		out.Op = "BinOp"
		out.Args = e.operands([]ssa.Value{in.X, in.Y})
		out.Extra = map[string]any{"op": in.Op.String()}
		// The operands' width, a comparison's too: an unknown int64 is at most MaxInt64.
		addIntSize(out.Extra, in.X.Type())
	case *ssa.Select:
		out.Op = "Select"
		states := []map[string]any{}
		for _, s := range in.States {
			st := map[string]any{"chan": e.operand(s.Chan), "line": line(s.Pos)}
			if s.Dir == types.SendOnly {
				st["dir"] = "send"
				st["send"] = e.operand(s.Send)
			} else {
				st["dir"] = "recv"
				st["elem"] = typeClass(s.Chan.Type().Underlying().(*types.Chan).Elem())
			}
			states = append(states, st)
		}
		out.Extra = map[string]any{"blocking": in.Blocking, "states": states}
	case *ssa.Extract:
		out.Op = "Extract"
		out.Args = e.operands([]ssa.Value{in.Tuple})
		out.Extra = map[string]any{"index": in.Index}
	case *ssa.Go:
		out.Op = "Go"
		out.Extra = e.call(&in.Call)
	case *ssa.Defer:
		out.Op = "Defer"
		out.Extra = e.call(&in.Call)
	case *ssa.Call:
		out.Op = "Call"
		out.Extra = e.call(&in.Call)
	case *ssa.RunDefers:
		out.Op = "RunDefers"
	case *ssa.Return:
		out.Op = "Return"
		out.Args = e.operands(in.Results)
	case *ssa.If:
		out.Op = "If"
		out.Args = e.operands([]ssa.Value{in.Cond})
	case *ssa.Jump:
		out.Op = "Jump"
	case *ssa.Panic:
		out.Op = "Panic"
		out.Args = e.operands([]ssa.Value{in.X})
	case *ssa.Phi:
		out.Op = "Phi"
		out.Args = e.operands(in.Edges)
	case *ssa.Alloc:
		out.Op = "Alloc"
		out.Extra = map[string]any{"elem": typeClass(in.Type().Underlying().(*types.Pointer).Elem())}
	case *ssa.FieldAddr:
		out.Op = "FieldAddr"
		out.Args = e.operands([]ssa.Value{in.X})
		out.Extra = map[string]any{"field": in.Field}
	case *ssa.Field:
		out.Op = "Field"
		out.Args = e.operands([]ssa.Value{in.X})
		out.Extra = map[string]any{"field": in.Field}
	case *ssa.IndexAddr:
		out.Op = "IndexAddr"
		out.Args = e.operands([]ssa.Value{in.X, in.Index})
		out.Extra = map[string]any{"base": typeClass(in.X.Type())}
	case *ssa.Index:
		out.Op = "Index"
		out.Args = e.operands([]ssa.Value{in.X, in.Index})
	case *ssa.Store:
		out.Op = "Store"
		out.Args = e.operands([]ssa.Value{in.Addr, in.Val})
	case *ssa.MakeClosure:
		out.Op = "MakeClosure"
		out.Args = e.operands(in.Bindings)
		out.Extra = map[string]any{"fn": funcName(in.Fn.(*ssa.Function))}
	case *ssa.MakeInterface:
		out.Op = "MakeInterface"
		out.Args = e.operands([]ssa.Value{in.X})
		out.Extra = map[string]any{"dyn": typeName(in.X.Type())}
		dynamicTypes = append(dynamicTypes, in.X.Type())
	case *ssa.ChangeInterface, *ssa.ChangeType, *ssa.Convert, *ssa.SliceToArrayPointer,
		*ssa.MultiConvert:
		out.Op = "Copy"
		out.Args = []Operand{e.operand(*in.Operands(nil)[0])}
		if cv, ok := in.(*ssa.Convert); ok {
			out.Extra = map[string]any{}
			addIntSize(out.Extra, cv.Type())
			// string(b) of a []byte (not of a []rune): the checker spells out known bytes.
			if sl, ok := cv.X.Type().Underlying().(*types.Slice); ok {
				if e, ok := sl.Elem().Underlying().(*types.Basic); ok && e.Kind() == types.Uint8 {
					out.Extra["frombytes"] = true
				}
			}
		}
	case *ssa.TypeAssert:
		out.Op = "TypeAssert"
		out.Args = e.operands([]ssa.Value{in.X})
		out.Extra = map[string]any{"asserted": typeName(in.AssertedType), "commaok": in.CommaOk,
			"toiface": types.IsInterface(in.AssertedType)}
	case *ssa.Slice:
		out.Op = "Slice"
		args := []Operand{e.operand(in.X)}
		for _, v := range []ssa.Value{in.Low, in.High} {
			if v == nil {
				args = append(args, Operand{"k": "none"})
			} else {
				args = append(args, e.operand(v))
			}
		}
		out.Args = args
		out.Extra = map[string]any{"base": typeClass(in.X.Type())}
		if in.Max != nil { // s[lo:hi:max]: the capacity an append may fill in place
			out.Extra["max"] = e.operand(in.Max)
		}
	case *ssa.MakeSlice:
		out.Op = "MakeSlice"
		out.Args = e.operands([]ssa.Value{in.Len, in.Cap})
		out.Extra = map[string]any{"elem": typeClass(in.Type().Underlying().(*types.Slice).Elem())}
	case *ssa.MakeMap:
		out.Op = "MakeMap"
		out.Extra = map[string]any{"holds": holdsSync(in.Type(), map[types.Type]bool{})}
	case *ssa.MapUpdate:
		out.Op = "MapUpdate"
		out.Args = e.operands([]ssa.Value{in.Map, in.Key, in.Value})
	case *ssa.Lookup:
		out.Op = "Lookup"
		out.Args = e.operands([]ssa.Value{in.X, in.Index})
		out.Extra = map[string]any{"commaok": in.CommaOk}
	case *ssa.Range:
		out.Op = "Range"
		out.Args = e.operands([]ssa.Value{in.X})
	case *ssa.Next:
		out.Op = "Next"
		out.Args = e.operands([]ssa.Value{in.Iter})
		out.Extra = map[string]any{"isstring": in.IsString}
	default:
		out.Op = "Unsupported"
		out.Extra = map[string]any{"what": fmt.Sprintf("%T", in)}
	}
	return out, true
}

func encode(f *ssa.Function) *Function {
	e := &encoder{fn: f}
	out := &Function{Name: funcName(f), Line: line(f.Pos()), Recover: -1, External: len(f.Blocks) == 0}
	pkg := f.Pkg
	if pkg == nil && f.Origin() != nil {
		pkg = f.Origin().Pkg // an instance of a generic function has no package of its own
	}
	if pos := fset.Position(f.Pos()); pos.IsValid() && pos.Filename != mainFile && pkg != nil {
		path := pkg.Pkg.Path()
		if path == mainPath {
			path = checkedPath
		}
		out.File = path + "/" + filepath.Base(pos.Filename)
	}
	for _, p := range f.Params {
		out.Params = append(out.Params, p.Name())
	}
	for _, p := range f.FreeVars {
		out.Free = append(out.Free, p.Name())
	}
	if f.Recover != nil {
		out.Recover = f.Recover.Index
	}
	for _, b := range f.Blocks {
		blk := Block{Succs: []int{}, Preds: []int{}, Instrs: []Instr{}}
		for _, s := range b.Succs {
			blk.Succs = append(blk.Succs, s.Index)
		}
		for _, p := range b.Preds {
			blk.Preds = append(blk.Preds, p.Index)
		}
		for _, in := range b.Instrs {
			if enc, ok := e.instr(in); ok {
				blk.Instrs = append(blk.Instrs, enc)
			}
		}
		out.Blocks = append(out.Blocks, blk)
	}
	return out
}

// load type-checks the file as its own package, with the packages `extra` from source.
// Quickly, the standard library comes from the export data the go command builds once and
// caches; withSources type-checks it from its source instead, a second or more on every
// call. The SSA is the same either way: ssautil.Packages builds bodies for the packages
// loaded from source only. Only when withSources does it print the errors, if any, and
// only then is a false ok final.
func load(file string, withSources bool, extra []string) ([]*packages.Package, bool) {
	fset = token.NewFileSet()
	mode := packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
		packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports
	if withSources {
		mode |= packages.NeedDeps
	}
	cfg := &packages.Config{Mode: mode, Fset: fset, Dir: filepath.Dir(file)}
	pkgs, err := packages.Load(cfg, append([]string{"file=" + file}, extra...)...)
	if err != nil {
		if withSources {
			fmt.Fprintln(os.Stderr, err)
		}
		return nil, false
	}
	bad := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if withSources {
				fmt.Fprintln(os.Stderr, e)
			}
			bad = true
		}
	})
	return pkgs, !bad
}

// plainStd are the standard library's packages of plain data structures: loaded from
// source and interpreted like the program's code, what they hold is known (the checker
// models the rest of the standard library by name, and what it does not model is unknown).
var plainStd = map[string]bool{"container/list": true, "container/ring": true,
	"container/heap": true}

// beyondStd gives the packages to load from source besides the file's, in dependency
// order: those outside the standard library it needs (after writing a go.mod beside the
// file and resolving its imports with `go mod tidy`; their modules are the second result)
// and the plainStd ones among its imports and theirs. An import path whose first element
// has no dot is the standard library's (the go command's own rule for what it may fetch).
// `allowed`, when not empty, are the module paths whose packages the file may import
// from outside the standard library (the playground's list; "std" alone allows none).
// `whole`: the file's directory holds the rest of its package, which only a module
// loads with it (a lone file outside one is a package by itself).
func beyondStd(file, goCmd string, allowed, opaque []string, whole, inModule bool) (pkgs,
	modules []string, err error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
	if err != nil {
		return nil, nil, nil // the load reports it
	}
	need := whole || inModule
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, "`\"")
		if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
			if !allowedPath(path, allowed) {
				also := ""
				if mods := strings.Join(slices.DeleteFunc(slices.Clone(allowed),
					func(m string) bool { return m == "std" }), ", "); mods != "" {
					also = " and " + mods
				}
				return nil, nil, fmt.Errorf("%s: import %q: here only the standard library%s "+
					"may be imported", filepath.Base(file), path, also)
			}
			need = true
		} else if plainStd[path] {
			pkgs = append(pkgs, path) // none of them imports another
		}
	}
	if !need {
		return pkgs, nil, nil
	}
	pkgs = nil
	dir := filepath.Dir(file)
	if !inModule {
		mod := "module command-line-arguments\n"
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
			return nil, nil, err
		}
	}
	run := func(args ...string) (string, error) {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok {
			return "", fmt.Errorf("%s", strings.TrimSpace(string(ee.Stderr)))
		}
		return string(out), err
	}
	if inModule {
		// The module's own go.mod says which versions it needs; go list fetches them.
	} else if _, err := run("mod", "tidy"); err != nil {
		return nil, nil, fmt.Errorf("the imports outside the standard library could not be "+
			"resolved (go mod tidy):\n%v", err)
	}
	// Each package: its path, whether it is the standard library's, its imports, and its
	// module ("path version") unless it is the file's own; in dependency order.
	out, err := run("list", "-deps", "-f",
		"{{.ImportPath}} {{.Standard}} {{join .Imports \",\"}} {{with .Module}}{{if not .Main}}"+
			"{{.Path}} {{.Version}}{{end}}{{end}}", ".")
	if err != nil {
		return nil, nil, err
	}
	type listed struct {
		std     bool
		imports []string
		module  string
	}
	var order []string
	info := map[string]listed{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		fields := strings.SplitN(line, " ", 4)
		for len(fields) < 4 {
			fields = append(fields, "")
		}
		var imports []string
		if fields[2] != "" {
			imports = strings.Split(fields[2], ",")
		}
		order = append(order, fields[0])
		info[fields[0]] = listed{fields[1] == "true", imports, strings.TrimSpace(fields[3])}
	}
	// What the file reaches without going through a package the checker models by name
	// (`opaque`: testify, goleak): those are type-checked from export data, and what only
	// they import is not loaded at all (testify alone is yaml, spew, difflib and more).
	mainPath = order[len(order)-1] // "." comes after what it imports
	reached := map[string]bool{mainPath: true}
	todo := []string{mainPath}
	used := map[string]bool{}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, imp := range info[p].imports {
			if info[imp].module != "" {
				used[info[imp].module] = true
			}
			if reached[imp] || isOpaque(imp, opaque) {
				continue
			}
			reached[imp] = true
			todo = append(todo, imp)
		}
	}
	for _, p := range order {
		if p != mainPath && reached[p] && (!info[p].std || plainStd[p]) {
			pkgs = append(pkgs, p)
		}
	}
	for m := range used {
		modules = append(modules, m)
	}
	slices.Sort(modules)
	return pkgs, modules, nil
}

// isOpaque: the package is one the checker models by name (a path under one of `opaque`).
func isOpaque(path string, opaque []string) bool {
	for _, prefix := range opaque {
		if path == prefix || strings.HasPrefix(path, prefix+"/") {
			return true
		}
	}
	return false
}

func main() {
	// -from-source skips the quick load: the tests compare the two.
	fromSource := flag.Bool("from-source", false, "type-check the imports from their source")
	goCmd := flag.String("go", "go", "the go command that resolves imports outside the "+
		"standard library")
	allow := flag.String("allow", "", "comma-separated module paths: the only ones the file "+
		"may import from outside the standard library (empty: any)")
	whole := flag.Bool("package", false, "the file's directory holds the rest of its package")
	inModule := flag.Bool("module", false, "the file's directory lies in a module whose "+
		"go.mod is above it: its packages, internal ones too, are the module's own")
	opaqueList := flag.String("opaque", "", "comma-separated package path prefixes the "+
		"checker models by name: not loaded from source")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gocheck-ssa [-from-source] [-go GO] [-allow MODULE,...] "+
			"[-opaque PREFIX,...] [-package] [-module] FILE.go")
		os.Exit(1)
	}
	file, err := filepath.Abs(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var allowed []string
	if *allow != "" {
		allowed = strings.Split(*allow, ",")
	}
	mainFile = file
	var opaque []string
	if *opaqueList != "" {
		opaque = strings.Split(*opaqueList, ",")
	}
	extra, modules, err := beyondStd(file, *goCmd, allowed, opaque, *whole, *inModule)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	pkgs, ok := []*packages.Package(nil), false
	if !*fromSource {
		pkgs, ok = load(file, false, extra)
	}
	if !ok {
		// Go's messages as its front end gives them from source: the quick load's also
		// carry the compiler's, from building the export data. The file's fault or not,
		// the source load decides.
		if pkgs, ok = load(file, true, extra); !ok {
			os.Exit(2)
		}
	}
	if len(pkgs) != 1+len(extra) {
		fmt.Fprintln(os.Stderr, "not one Go package")
		os.Exit(2)
	}
	// The file's package first, then the others in dependency order (`extra`'s).
	byPath := map[string]*packages.Package{}
	for _, p := range pkgs {
		byPath[p.PkgPath] = p
	}
	pkgs = pkgs[:0]
	for _, path := range append([]string{mainPath}, extra...) {
		if byPath[path] == nil {
			fmt.Fprintf(os.Stderr, "package %s was not loaded\n", path)
			os.Exit(1)
		}
		pkgs = append(pkgs, byPath[path])
	}
	var tests []string
	if pkgs[0].Name != "main" {
		if tests = testFuncs(pkgs[0]); len(tests) == 0 {
			fmt.Fprintln(os.Stderr, "neither a package main program nor a test file "+
				"(no func TestXxx(t *testing.T) or ExampleXxx())")
			os.Exit(2)
		}
	}
	prog, spkgs := ssautil.Packages(pkgs, ssa.InstantiateGenerics|ssa.GlobalDebug)
	prog.Build()
	mainPkg := spkgs[0]
	if tests == nil && mainPkg.Func("main") == nil {
		fmt.Fprintln(os.Stderr, "package main has no func main")
		os.Exit(2)
	}
	out := Output{File: flag.Arg(0), Functions: map[string]*Function{},
		Methods: map[string]map[string]string{}, Globals: map[string]string{},
		Modules: modules}
	for _, name := range tests {
		out.Tests = append(out.Tests, funcName(mainPkg.Func(name)))
	}
	ours := map[*ssa.Package]bool{}
	for _, p := range spkgs {
		ours[p] = true
	}
	for _, p := range spkgs[1:] {
		if init := p.Func("init"); init != nil {
			out.Inits = append(out.Inits, funcName(init))
		}
	}
	for f := range ssautil.AllFunctions(prog) {
		if ours[f.Pkg] || (f.Pkg == nil && f.Origin() != nil && ours[f.Origin().Pkg]) ||
			(f.Parent() != nil) && inOurs(f, ours) {
			out.Functions[funcName(f)] = encode(f)
		}
	}
	// Synthetic functions the main package refers to (bound method values such as
	// `f := w.Run`, thunks, wrappers) have no package: take them by reference.
	var work []*ssa.Function
	for f := range ssautil.AllFunctions(prog) {
		if _, ok := out.Functions[funcName(f)]; ok {
			work = append(work, f)
		}
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				for _, op := range in.Operands(nil) {
					if op == nil || *op == nil {
						continue
					}
					g, ok := (*op).(*ssa.Function)
					if !ok || len(g.Blocks) == 0 || g.Synthetic == "" {
						continue
					}
					if _, seen := out.Functions[funcName(g)]; seen {
						continue
					}
					out.Functions[funcName(g)] = encode(g)
					work = append(work, g)
				}
			}
		}
	}
	// Method sets of the loaded packages' types, for calls through an interface, and of
	// every type made into an interface value (an instance of a generic type is no
	// package's member: ttlcache's optionFunc[K, V]).
	// A method reached only through its type's method set (one of the models the checker
	// calls in a library function's place, such as io.Pipe's) brings its closures along.
	var encodeClosures func(fn *ssa.Function)
	encodeClosures = func(fn *ssa.Function) {
		for _, g := range fn.AnonFuncs {
			if _, seen := out.Functions[funcName(g)]; !seen {
				out.Functions[funcName(g)] = encode(g)
				encodeClosures(g)
			}
		}
	}
	addMethods := func(typ types.Type) {
		if _, seen := out.Methods[typ.String()]; seen {
			return
		}
		ms := prog.MethodSets.MethodSet(typ)
		m := map[string]string{}
		for i := 0; i < ms.Len(); i++ {
			if fn := prog.MethodValue(ms.At(i)); fn != nil {
				m[ms.At(i).Obj().Name()] = funcName(fn)
				if _, seen := out.Functions[funcName(fn)]; !seen && len(fn.Blocks) > 0 {
					out.Functions[funcName(fn)] = encode(fn)
					encodeClosures(fn)
				}
			}
		}
		out.Methods[typ.String()] = m
	}
	for _, mem := range members(spkgs) {
		if t, ok := mem.(*ssa.Type); ok {
			addMethods(t.Type())
			addMethods(types.NewPointer(t.Type()))
		}
	}
	for len(dynamicTypes) > 0 { // encoding a method may make more
		typ := dynamicTypes[len(dynamicTypes)-1]
		dynamicTypes = dynamicTypes[:len(dynamicTypes)-1]
		if ms := prog.MethodSets.MethodSet(typ); ms.Len() > 0 {
			addMethods(typ)
		}
	}
	for _, mem := range members(spkgs) {
		if g, ok := mem.(*ssa.Global); ok {
			out.Globals[g.String()] = typeClass(g.Type().Underlying().(*types.Pointer).Elem())
		}
	}
	encoded, err := json.Marshal(out)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if mainPath != checkedPath {
		// The checker names the checked package as a file's own, wherever it lies (its
		// functions, types and globals; the module's other packages keep their paths).
		encoded = bytes.ReplaceAll(encoded, []byte(mainPath+"."), []byte(checkedPath+"."))
	}
	os.Stdout.Write(append(encoded, '\n'))
}

// varName is the source variable a value is first bound to (from the debug references
// that GlobalDebug mode records), for traces a reader can follow.
func varName(v ssa.Value) string {
	refs := v.Referrers()
	if refs == nil {
		return ""
	}
	for _, r := range *refs {
		if d, ok := r.(*ssa.DebugRef); ok {
			if obj, ok := d.Object().(*types.Var); ok && obj != nil {
				return obj.Name()
			}
		}
		if st, ok := r.(*ssa.Store); ok && st.Val == v {
			if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
				s := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
				return "." + s.Field(fa.Field).Name()
			}
			if a, ok := st.Addr.(*ssa.Alloc); ok && a.Comment != "" {
				return a.Comment
			}
		}
	}
	return ""
}

// testFuncs are the checked file's tests as `go test` finds them: functions named Test,
// or Test then a name not starting with a lower-case letter, taking one *testing.T and
// returning nothing; in source order, which is the order `go test` runs them in. Its
// examples too (`func ExampleXxx()`): each is a program of the package's, as a reader
// would run it (go test runs only those with an output comment).
func testFuncs(pkg *packages.Package) []string {
	var names []string
	for _, file := range pkg.Syntax {
		if fset.Position(file.Pos()).Filename != mainFile {
			continue // another file of its package: only the checked file's tests run
		}
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			fn, ok := pkg.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			sig := fn.Type().(*types.Signature)
			if sig.TypeParams().Len() != 0 || sig.Results().Len() != 0 {
				continue
			}
			test := isTestName(fd.Name.Name, "Test") && sig.Params().Len() == 1 &&
				types.TypeString(sig.Params().At(0).Type(), nil) == "*testing.T"
			example := isTestName(fd.Name.Name, "Example") && sig.Params().Len() == 0
			if test || example {
				names = append(names, fd.Name.Name)
			}
		}
	}
	return names
}

// isTestName: name is prefix ("Test", "Example"), or prefix then a name not starting with
// a lower-case letter, as `go test` has it.
func isTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

func allowedPath(path string, allowed []string) bool {
	if len(allowed) == 0 {
		return true
	}
	for _, mod := range allowed {
		if path == mod || strings.HasPrefix(path, mod+"/") {
			return true
		}
	}
	return false
}

// inOurs: f is nested in a function of a package loaded from source.
func inOurs(f *ssa.Function, ours map[*ssa.Package]bool) bool {
	for p := f; p != nil; p = p.Parent() {
		if ours[p.Pkg] {
			return true
		}
	}
	return false
}

func members(pkgs []*ssa.Package) []ssa.Member {
	var out []ssa.Member
	for _, p := range pkgs {
		for _, m := range p.Members {
			out = append(out, m)
		}
	}
	return out
}
