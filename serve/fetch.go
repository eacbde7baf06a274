package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// ErrFetchRefused is the error of a fetch the policy refuses: a host not
// in Config.AllowFetch, a scheme other than http(s), or an address that
// is not public.
var ErrFetchRefused = errors.New("serve: fetch refused")

// maxRedirects is the most redirects a fetch follows.
const maxRedirects = 5

// userAgent names winnow to the sites it fetches from.
const userAgent = "winnow/0.1 (+serve)"

// fetcher gets pages from the hosts it is allowed, never from an address
// that is not public: every address a name resolves to is checked before
// the connection, the socket's own address again just before it connects
// (the Control hook), and both for every redirect, since each redirect is
// a new dial.
type fetcher struct {
	hosts    []string // "example.com" exactly, ".example.com" with its subdomains
	client   *http.Client
	maxBytes int64
	// lookup resolves a host name; tests replace it.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// refused says an address may not be connected to; tests loosen it.
	refused func(netip.AddrPort) bool
}

func newFetcher(hosts []string, timeout time.Duration, maxBytes int64) (*fetcher, error) {
	f := &fetcher{maxBytes: maxBytes, lookup: lookupIP, refused: refusedAddr}
	for _, h := range hosts {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" || strings.ContainsAny(h, "/:@ ") {
			return nil, fmt.Errorf("serve: allow-fetch host %q: want a host name such as example.com or .example.com", h)
		}
		f.hosts = append(f.hosts, h)
	}
	tr := &http.Transport{
		Proxy:                  nil, // a proxy would connect for us, past the checks
		DialContext:            f.dial,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  timeout,
		MaxResponseHeaderBytes: 64 << 10,
		MaxIdleConns:           16,
		IdleConnTimeout:        30 * time.Second,
	}
	f.client = &http.Client{Transport: tr, Timeout: timeout, CheckRedirect: f.checkRedirect}
	return f, nil
}

// enabled says whether any host may be fetched.
func (f *fetcher) enabled() bool { return len(f.hosts) > 0 }

// allowed says whether the policy names the URL's host.
func (f *fetcher) allowed(u *url.URL) bool {
	if u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	for _, h := range f.hosts {
		if host == h || strings.HasPrefix(h, ".") && (host == h[1:] || strings.HasSuffix(host, h)) {
			return true
		}
	}
	return false
}

func (f *fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > maxRedirects {
		return fmt.Errorf("more than %d redirects", maxRedirects)
	}
	if !f.allowed(req.URL) {
		return fmt.Errorf("%w: redirect to %s, a host not allowed", ErrFetchRefused, req.URL.Redacted())
	}
	return nil
}

// lookupIP resolves a host name with the system's resolver.
func lookupIP(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// dial resolves the host, refuses every address that is not public, and
// connects to the first public one.
func (f *fetcher) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portS, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	p, err := parsePort(portS)
	if err != nil {
		return nil, err
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = f.lookup(ctx, host); err != nil {
		return nil, err
	}
	d := net.Dialer{Timeout: 10 * time.Second, Control: f.control}
	var firstErr error
	for _, ip := range ips {
		ap := netip.AddrPortFrom(ip.Unmap(), p)
		if f.refused(ap) {
			firstErr = cmpErr(firstErr, fmt.Errorf("%w: %s resolves to %s, not a public address", ErrFetchRefused, host, ip))
			continue
		}
		c, err := d.DialContext(ctx, network, ap.String())
		if err == nil {
			return c, nil
		}
		firstErr = cmpErr(firstErr, err)
	}
	if firstErr == nil {
		firstErr = fmt.Errorf("%s: no address", host)
	}
	return nil, firstErr
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

func parsePort(s string) (uint16, error) {
	ap, err := netip.ParseAddrPort("0.0.0.0:" + s)
	if err != nil {
		return 0, fmt.Errorf("port %q: %w", s, err)
	}
	return ap.Port(), nil
}

// control checks the address the socket is about to connect to, after
// every resolution: the last word on where a fetch goes.
func (f *fetcher) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: address %q", ErrFetchRefused, address)
	}
	if f.refused(netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())) {
		return fmt.Errorf("%w: %s is not a public address", ErrFetchRefused, ap.Addr())
	}
	return nil
}

// nonPublic are ranges that are neither loopback, private nor link-local
// by net/netip's reckoning and still not the public internet: "this"
// network, carrier-grade NAT (RFC 6598), IETF protocol assignments,
// benchmarking (RFC 2544), the documentation ranges, reserved space.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"), // NAT64 can reach IPv4 private space
	netip.MustParsePrefix("2001:db8::/32"),
}

// refusedAddr says an address is not public: loopback, private,
// link-local (169.254.169.254, the cloud metadata service, among them),
// multicast, unspecified, or one of nonPublic.
func refusedAddr(ap netip.AddrPort) bool {
	ip := ap.Addr().Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() || !ip.IsGlobalUnicast() {
		return true
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// get fetches a page the policy allows: its body (at most maxBytes+1
// bytes, so that extract marks a longer page truncated) and content type.
func (f *fetcher) get(ctx context.Context, raw string) ([]byte, string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrFetchRefused, err)
	}
	if !f.allowed(u) {
		return nil, "", fmt.Errorf("%w: %s is not an allowed host (--allow-fetch)", ErrFetchRefused, u.Hostname())
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("User-Agent", userAgent)
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, "", fmt.Errorf("fetch %s: HTTP %s", u.Redacted(), resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.maxBytes+1))
	return body, resp.Header.Get("Content-Type"), err
}
