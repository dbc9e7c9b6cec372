package main

// A throwaway control plane: etcd and kube-apiserver, built from the
// modules go.mod pins, on loopback only, on free ports, with everything
// they need (a CA, the apiserver's serving certificate, an admin client
// certificate, the service-account key pair) made at start in a temporary
// directory. Stop kills both, waits for them and removes the directory;
// the processes also die with this one (Pdeathsig), so nothing is left
// behind when the driver is killed or fails.

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

type cluster struct {
	dir    string
	url    string // https://127.0.0.1:PORT
	client *http.Client
	procs  []*proc
}

type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{} // closed when it has exited
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

type keyPair struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	der  []byte
}

func newCert(tmpl *x509.Certificate, parent *keyPair) (*keyPair, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		return nil, err
	}
	tmpl.SerialNumber = serial
	tmpl.NotBefore = time.Now().Add(-time.Hour)
	tmpl.NotAfter = time.Now().Add(24 * time.Hour)
	signer, signerKey := tmpl, key
	if parent != nil {
		signer, signerKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, &key.PublicKey, signerKey)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &keyPair{cert: cert, key: key, der: der}, nil
}

func (k *keyPair) write(dir, name string) (certPath, keyPath string, err error) {
	certPath = filepath.Join(dir, name+".crt")
	keyPath = filepath.Join(dir, name+".key")
	if err = os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: k.der}), 0o600); err != nil {
		return
	}
	kd, err := x509.MarshalECPrivateKey(k.key)
	if err != nil {
		return
	}
	err = os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kd}), 0o600)
	return
}

// startCluster starts etcd and kube-apiserver and waits until the
// apiserver is ready (at most `wait`).
func startCluster(etcdBin, apiserverBin string, wait time.Duration, logs bool, extra ...string) (*cluster, error) {
	dir, err := os.MkdirTemp("", "smdx-realapi-")
	if err != nil {
		return nil, err
	}
	c := &cluster{dir: dir}
	ok := false
	defer func() {
		if !ok {
			c.stop()
		}
	}()

	ca, err := newCert(&x509.Certificate{Subject: pkix.Name{CommonName: "smdx-realapi-ca"}, IsCA: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true}, nil)
	if err != nil {
		return nil, err
	}
	serving, err := newCert(&x509.Certificate{Subject: pkix.Name{CommonName: "kube-apiserver"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}, ca)
	if err != nil {
		return nil, err
	}
	admin, err := newCert(&x509.Certificate{Subject: pkix.Name{CommonName: "smdx-admin", Organization: []string{"system:masters"}},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}, ca)
	if err != nil {
		return nil, err
	}
	sa, err := newCert(&x509.Certificate{Subject: pkix.Name{CommonName: "service-accounts"},
		KeyUsage: x509.KeyUsageDigitalSignature}, ca)
	if err != nil {
		return nil, err
	}
	caCrt, _, err := ca.write(dir, "ca")
	if err != nil {
		return nil, err
	}
	servingCrt, servingKey, err := serving.write(dir, "serving")
	if err != nil {
		return nil, err
	}
	saCrt, saKey, err := sa.write(dir, "sa")
	if err != nil {
		return nil, err
	}
	// For `realapi serve`'s users (curl --cert admin.crt --key admin.key).
	if _, _, err := admin.write(dir, "admin"); err != nil {
		return nil, err
	}

	etcdClient, err := freePort()
	if err != nil {
		return nil, err
	}
	etcdPeer, err := freePort()
	if err != nil {
		return nil, err
	}
	apiPort, err := freePort()
	if err != nil {
		return nil, err
	}
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(etcdClient)
	peerURL := "http://127.0.0.1:" + strconv.Itoa(etcdPeer)
	if err := c.spawn("etcd", logs, etcdBin,
		"--name=smdx", "--data-dir="+filepath.Join(dir, "etcd"),
		"--listen-client-urls="+etcdURL, "--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL, "--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=smdx="+peerURL, "--log-level=error",
		"--listen-metrics-urls=", "--unsafe-no-fsync"); err != nil {
		return nil, err
	}
	if err := c.spawn("kube-apiserver", logs, apiserverBin, append([]string{
		"--etcd-servers=" + etcdURL,
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(apiPort),
		"--tls-cert-file=" + servingCrt, "--tls-private-key-file=" + servingKey,
		"--client-ca-file=" + caCrt,
		"--service-account-key-file=" + saCrt, "--service-account-signing-key-file=" + saKey,
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-cluster-ip-range=10.96.0.0/16",
		"--authorization-mode=RBAC",
		// No controller manager runs: the ServiceAccount admission plugin
		// would wait for a default service account nobody makes (and it
		// names the token volume it adds at random). The other plugins on
		// by default stay on, with their default flags, as smdx models
		// them: TaintNodesByCondition and DefaultTolerationSeconds.
		"--disable-admission-plugins=ServiceAccount",
		"--cert-dir=" + filepath.Join(dir, "certs"),
		"--endpoint-reconciler-type=none",
		"--profiling=false", "-v=0"}, extra...)...); err != nil {
		return nil, err
	}

	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	c.client = &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{
			RootCAs: pool,
			Certificates: []tls.Certificate{{
				Certificate: [][]byte{admin.der}, PrivateKey: admin.key,
			}},
		}},
	}
	c.url = "https://127.0.0.1:" + strconv.Itoa(apiPort)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	for {
		if err := c.ready(); err == nil {
			break
		} else if ctx.Err() != nil {
			return nil, fmt.Errorf("kube-apiserver not ready after %v: %v\n%s", wait, err, c.logTail("kube-apiserver"))
		}
		for _, p := range c.procs {
			select {
			case <-p.done:
				return nil, fmt.Errorf("%s exited: %v\n%s", p.name, p.cmd.ProcessState, c.logTail(p.name))
			default:
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	ok = true
	return c, nil
}

func (c *cluster) ready() error {
	resp, err := c.client.Get(c.url + "/readyz")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("/readyz: %s", resp.Status)
	}
	return nil
}

func (c *cluster) spawn(name string, logs bool, bin string, args ...string) error {
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	logFile, err := os.Create(filepath.Join(c.dir, name+".log"))
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if logs {
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %v", name, err)
	}
	p := &proc{name: name, cmd: cmd, done: make(chan struct{})}
	c.procs = append(c.procs, p)
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	return nil
}

// logTail is the end of a server's log, for an error message.
func (c *cluster) logTail(name string) string {
	b, err := os.ReadFile(filepath.Join(c.dir, name+".log"))
	if err != nil {
		return ""
	}
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(b)
}

// stop kills the servers (their process groups), waits for them to go and
// removes the directory.
func (c *cluster) stop() {
	for i := len(c.procs) - 1; i >= 0; i-- {
		p := c.procs[i]
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			fmt.Fprintf(os.Stderr, "realapi: %s (pid %d) did not exit\n", p.name, p.cmd.Process.Pid)
		}
	}
	c.procs = nil
	if c.dir != "" {
		_ = os.RemoveAll(c.dir)
	}
}
