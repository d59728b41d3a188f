package digest

import "slices"

// Owners says which of several digests hold a uuid: for a project whose
// rules ask many questions across its files (damage, many resumes), each
// answered without looking in every file.
type Owners struct {
	u     *Digest // the digests' uuids: their Union
	start []int32 // the holders of uuid index i are files[start[i]:start[i+1]]
	files []int32 // places in the digests given to NewOwners
}

// NewOwners indexes the uuids of ds by the digests holding them; u is
// Union(ds).
func NewOwners(u *Digest, ds []*Digest) *Owners {
	n := len(u.keys) + len(u.odd)
	o := &Owners{u: u, start: make([]int32, n+1)}
	each := func(fn func(file, at int)) {
		for i, d := range ds {
			if d == nil {
				continue
			}
			// Both sorted: each key is looked for from where the one
			// before was found.
			lo := 0
			for _, k := range d.keys {
				j, _ := slices.BinarySearchFunc(u.keys[lo:], k, cmpKey)
				lo += j
				fn(i, lo)
			}
			for _, s := range d.odd {
				fn(i, u.index(s))
			}
		}
	}
	each(func(_, at int) { o.start[at+1]++ })
	for i := 1; i <= n; i++ {
		o.start[i] += o.start[i-1]
	}
	o.files = make([]int32, o.start[n])
	next := make([]int32, n)
	copy(next, o.start[:n])
	each(func(file, at int) {
		o.files[next[at]] = int32(file)
		next[at]++
	})
	return o
}

// Of lists, in order, the places (in the digests given to NewOwners) of
// the digests holding uuid s.
func (o *Owners) Of(s string) []int32 {
	i := o.u.index(s)
	if i < 0 {
		return nil
	}
	return o.files[o.start[i]:o.start[i+1]]
}
