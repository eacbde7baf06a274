package dedupgen

// perm is a seeded pseudo-random permutation of [0, n) that takes no
// memory: a four-round Feistel network over the smallest even number of
// bits that covers n, walked along its cycles until the value falls
// inside [0, n) (Black and Rogaway's cycle walking). The generator uses
// it to scatter the members of a family over the file, and its inverse to
// find where each member went.
type perm struct {
	n    uint64
	half uint   // bits in each half
	mask uint64 // (1<<half)-1
	keys [4]uint64
}

func newPerm(n int, seed uint64) perm {
	bits := uint(2)
	for uint64(1)<<bits < uint64(n) {
		bits += 2
	}
	p := perm{n: uint64(n), half: bits / 2, mask: 1<<(bits/2) - 1}
	for i := range p.keys {
		p.keys[i] = splitmix(seed ^ uint64(i+1)*0x9e3779b97f4a7c15)
	}
	return p
}

// apply maps x in [0, n) to its image in [0, n).
func (p perm) apply(x int) int { return p.walk(x, p.round) }

// invert maps an image back to its x: apply(invert(y)) == y.
func (p perm) invert(y int) int { return p.walk(y, p.unround) }

// walk steps x through the Feistel network (or back) until it lands in
// [0, n) again: cycle walking keeps a permutation of the power-of-two
// domain a permutation of [0, n).
func (p perm) walk(x int, step func(uint64) uint64) int {
	v := uint64(x)
	for {
		v = step(v)
		if v < p.n {
			return int(v)
		}
	}
}

func (p perm) round(v uint64) uint64 {
	l, r := v>>p.half, v&p.mask
	for _, k := range p.keys {
		l, r = r, l^(splitmix(r^k)&p.mask)
	}
	return l<<p.half | r
}

func (p perm) unround(v uint64) uint64 {
	l, r := v>>p.half, v&p.mask
	for i := len(p.keys) - 1; i >= 0; i-- {
		l, r = r^(splitmix(l^p.keys[i])&p.mask), l
	}
	return l<<p.half | r
}
