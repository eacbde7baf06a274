package serve

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// ErrNeedToken is returned by CheckListen for an address other than
// loopback with no token.
var ErrNeedToken = errors.New("serve: a token is required to listen on an address other than loopback")

// CheckListen checks a listen address ("host:port") against the policy:
// loopback (127.0.0.0/8, ::1, localhost) needs nothing; any other
// address, the empty host (every interface) included, needs a token.
func CheckListen(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve: listen address %q: %w", addr, err)
	}
	if token != "" || isLoopback(host) {
		return nil
	}
	return fmt.Errorf("%w (%s): give --token-file, or listen on 127.0.0.1", ErrNeedToken, addr)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}
