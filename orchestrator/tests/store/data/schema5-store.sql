PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE runs (
  id            INTEGER PRIMARY KEY,
  kind          TEXT NOT NULL DEFAULT 'matrix',
  status        TEXT NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'done', 'failed', 'interrupted')),
  created_at    TEXT NOT NULL,
  finished_at   TEXT,
  matrix_path   TEXT NOT NULL,
  matrix_text   TEXT NOT NULL,
  matrix_sha256 TEXT NOT NULL,
  seed          INTEGER NOT NULL,
  rlab_version  TEXT NOT NULL,
  hostname      TEXT NOT NULL,
  note          TEXT NOT NULL DEFAULT ''
);
INSERT INTO runs VALUES(1,'nightly','done','2026-12-01T20:11:02.709Z','2026-12-01T20:11:02.712Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(2,'nightly','done','2026-12-01T20:11:02.716Z','2026-12-01T20:11:02.718Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(3,'nightly','done','2026-12-01T20:11:02.719Z','2026-12-01T20:11:02.724Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(4,'nightly','done','2026-12-01T20:11:02.725Z','2026-12-01T20:11:02.727Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(5,'nightly','done','2026-12-01T20:11:02.727Z','2026-12-01T20:11:02.733Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(6,'nightly','done','2026-12-01T20:11:02.733Z','2026-12-01T20:11:02.735Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(7,'nightly','done','2026-12-01T20:11:02.735Z','2026-12-01T20:11:02.741Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(8,'nightly','done','2026-12-01T20:11:02.741Z','2026-12-01T20:11:02.743Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(9,'nightly','done','2026-12-01T20:11:02.743Z','2026-12-01T20:11:02.749Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(10,'nightly','done','2026-12-01T20:11:02.750Z','2026-12-01T20:11:02.751Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(11,'nightly','done','2026-12-01T20:11:02.751Z','2026-12-01T20:11:02.765Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(12,'nightly','done','2026-12-01T20:11:02.765Z','2026-12-01T20:11:02.767Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(13,'nightly','done','2026-12-01T20:11:02.767Z','2026-12-01T20:11:02.769Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
INSERT INTO runs VALUES(14,'matrix','done','2026-12-01T20:11:02.769Z','2026-12-01T20:11:02.771Z','/nonexistent/matrix.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'3dfe21da7ecf37f2c877ef73dee53ca0ee88a17d1bcb9917321bc7258aaccfad',7,'0.1.0','vm','');
CREATE TABLE kernels (
  kernel_key     TEXT PRIMARY KEY,
  name           TEXT NOT NULL,
  kernel_release TEXT NOT NULL,
  source_commit  TEXT NOT NULL,
  config_sha256  TEXT NOT NULL,
  page_size_kib  INTEGER NOT NULL,
  patchset       TEXT NOT NULL DEFAULT '',
  first_seen     TEXT NOT NULL
);
INSERT INTO kernels VALUES('k-6.126.12.57+rlab1111111111111111111111111111111111111111','6.12','6.12.57+rlab','1111111111111111111111111111111111111111','9b1d77e3',64,'','2026-12-01T20:11:02.710Z');
INSERT INTO kernels VALUES('k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','6.12+inline-inactivation','6.12.57+rlab-inline','1111111111111111111111111111111111111111','c2f1e0aa',64,'inline-inactivation','2026-12-01T20:11:02.711Z');
INSERT INTO kernels VALUES('k-6.126.12.57+rlab2222222222222222222222222222222222222222','6.12','6.12.57+rlab','2222222222222222222222222222222222222222','9b1d77e3',64,'','2026-12-01T20:11:02.742Z');
INSERT INTO kernels VALUES('k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','6.12+inline-inactivation','6.12.57+rlab-inline','2222222222222222222222222222222222222222','c2f1e0aa',64,'inline-inactivation','2026-12-01T20:11:02.742Z');
CREATE TABLE images (
  image_key  TEXT PRIMARY KEY,
  first_seen TEXT NOT NULL
);
INSERT INTO images VALUES('img-1','2026-12-01T20:11:02.710Z');
CREATE TABLE cells (
  id               INTEGER PRIMARY KEY,
  run_id           INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  cell_key         TEXT NOT NULL,
  kernel           TEXT NOT NULL,
  patchset         TEXT NOT NULL,
  page_size        INTEGER NOT NULL,
  fs               TEXT NOT NULL,
  mkfs_label       TEXT NOT NULL,
  mkfs_options     TEXT NOT NULL,
  mount_options    TEXT NOT NULL,
  vcpus            INTEGER NOT NULL,
  workload         TEXT NOT NULL,
  workload_kind    TEXT NOT NULL,
  scripts_per_loop INTEGER NOT NULL,
  copies           INTEGER NOT NULL,
  passes           INTEGER NOT NULL,
  duration_s       REAL NOT NULL,
  UNIQUE (run_id, cell_key)
);
INSERT INTO cells VALUES(1,1,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(2,1,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(3,2,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(4,2,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(5,3,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(6,3,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(7,4,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(8,4,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(9,5,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(10,5,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(11,6,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(12,6,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(13,7,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(14,7,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(15,8,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(16,8,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(17,9,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(18,9,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(19,10,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(20,10,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(21,11,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(22,11,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(23,12,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(24,12,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(25,13,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(26,13,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(27,14,'6.12/xfs-agcount4/2vcpu/shell1','6.12','',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
INSERT INTO cells VALUES(28,14,'6.12+inline-inactivation/xfs-agcount4/2vcpu/shell1','6.12+inline-inactivation','inline-inactivation',65536,'xfs','agcount=4','["-d","agcount=4"]','',2,'shell1','shell1',1,2,3,20.0);
CREATE TABLE boots (
  id             INTEGER PRIMARY KEY,
  cell_id        INTEGER NOT NULL REFERENCES cells(id) ON DELETE CASCADE,
  repeat         INTEGER NOT NULL,
  order_index    INTEGER,
  status         TEXT NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'running', 'done', 'failed')),
  attempts       INTEGER NOT NULL DEFAULT 0,
  host_uri       TEXT,
  domain         TEXT,
  console_log    TEXT,
  started_at     TEXT,
  finished_at    TEXT,
  kernel_key     TEXT REFERENCES kernels(kernel_key),
  image_key      TEXT REFERENCES images(image_key),
  guest_page_size      INTEGER,
  guest_nr_cpus        INTEGER,
  guest_kernel_release TEXT,
  agent_version        TEXT,
  guest_mem_total_kib  INTEGER,
  guest_tracepoints    TEXT,
  boot_s               REAL,
  UNIQUE (cell_id, repeat)
);
INSERT INTO boots VALUES(1,1,0,NULL,'done',1,'qemu:///system','rlab-1','/tmp/console.log','2026-12-01T20:11:02.710Z','2026-12-01T20:11:02.711Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(2,1,1,NULL,'done',1,'qemu:///system','rlab-2','/tmp/console.log','2026-12-01T20:11:02.711Z','2026-12-01T20:11:02.711Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(3,1,2,NULL,'done',1,'qemu:///system','rlab-3','/tmp/console.log','2026-12-01T20:11:02.711Z','2026-12-01T20:11:02.711Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(4,2,0,NULL,'done',1,'qemu:///system','rlab-4','/tmp/console.log','2026-12-01T20:11:02.711Z','2026-12-01T20:11:02.711Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(5,2,1,NULL,'done',1,'qemu:///system','rlab-5','/tmp/console.log','2026-12-01T20:11:02.711Z','2026-12-01T20:11:02.712Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(6,2,2,NULL,'done',1,'qemu:///system','rlab-6','/tmp/console.log','2026-12-01T20:11:02.712Z','2026-12-01T20:11:02.712Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(7,3,0,NULL,'done',1,'qemu:///system','rlab-7','/tmp/console.log','2026-12-01T20:11:02.717Z','2026-12-01T20:11:02.717Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(8,3,1,NULL,'done',1,'qemu:///system','rlab-8','/tmp/console.log','2026-12-01T20:11:02.717Z','2026-12-01T20:11:02.717Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(9,3,2,NULL,'done',1,'qemu:///system','rlab-9','/tmp/console.log','2026-12-01T20:11:02.717Z','2026-12-01T20:11:02.717Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(10,4,0,NULL,'done',1,'qemu:///system','rlab-10','/tmp/console.log','2026-12-01T20:11:02.718Z','2026-12-01T20:11:02.718Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(11,4,1,NULL,'done',1,'qemu:///system','rlab-11','/tmp/console.log','2026-12-01T20:11:02.718Z','2026-12-01T20:11:02.718Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(12,4,2,NULL,'done',1,'qemu:///system','rlab-12','/tmp/console.log','2026-12-01T20:11:02.718Z','2026-12-01T20:11:02.718Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(13,5,0,NULL,'done',1,'qemu:///system','rlab-13','/tmp/console.log','2026-12-01T20:11:02.719Z','2026-12-01T20:11:02.719Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(14,5,1,NULL,'done',1,'qemu:///system','rlab-14','/tmp/console.log','2026-12-01T20:11:02.719Z','2026-12-01T20:11:02.719Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(15,5,2,NULL,'done',1,'qemu:///system','rlab-15','/tmp/console.log','2026-12-01T20:11:02.719Z','2026-12-01T20:11:02.719Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(16,6,0,NULL,'done',1,'qemu:///system','rlab-16','/tmp/console.log','2026-12-01T20:11:02.720Z','2026-12-01T20:11:02.720Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(17,6,1,NULL,'done',1,'qemu:///system','rlab-17','/tmp/console.log','2026-12-01T20:11:02.720Z','2026-12-01T20:11:02.720Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(18,6,2,NULL,'done',1,'qemu:///system','rlab-18','/tmp/console.log','2026-12-01T20:11:02.720Z','2026-12-01T20:11:02.724Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(19,7,0,NULL,'done',1,'qemu:///system','rlab-19','/tmp/console.log','2026-12-01T20:11:02.725Z','2026-12-01T20:11:02.725Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(20,7,1,NULL,'done',1,'qemu:///system','rlab-20','/tmp/console.log','2026-12-01T20:11:02.725Z','2026-12-01T20:11:02.725Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(21,7,2,NULL,'done',1,'qemu:///system','rlab-21','/tmp/console.log','2026-12-01T20:11:02.726Z','2026-12-01T20:11:02.726Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(22,8,0,NULL,'done',1,'qemu:///system','rlab-22','/tmp/console.log','2026-12-01T20:11:02.726Z','2026-12-01T20:11:02.726Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(23,8,1,NULL,'done',1,'qemu:///system','rlab-23','/tmp/console.log','2026-12-01T20:11:02.726Z','2026-12-01T20:11:02.726Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(24,8,2,NULL,'done',1,'qemu:///system','rlab-24','/tmp/console.log','2026-12-01T20:11:02.726Z','2026-12-01T20:11:02.727Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(25,9,0,NULL,'done',1,'qemu:///system','rlab-25','/tmp/console.log','2026-12-01T20:11:02.727Z','2026-12-01T20:11:02.727Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(26,9,1,NULL,'done',1,'qemu:///system','rlab-26','/tmp/console.log','2026-12-01T20:11:02.727Z','2026-12-01T20:11:02.727Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(27,9,2,NULL,'done',1,'qemu:///system','rlab-27','/tmp/console.log','2026-12-01T20:11:02.728Z','2026-12-01T20:11:02.728Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(28,10,0,NULL,'done',1,'qemu:///system','rlab-28','/tmp/console.log','2026-12-01T20:11:02.728Z','2026-12-01T20:11:02.728Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(29,10,1,NULL,'done',1,'qemu:///system','rlab-29','/tmp/console.log','2026-12-01T20:11:02.732Z','2026-12-01T20:11:02.732Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(30,10,2,NULL,'done',1,'qemu:///system','rlab-30','/tmp/console.log','2026-12-01T20:11:02.733Z','2026-12-01T20:11:02.733Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(31,11,0,NULL,'done',1,'qemu:///system','rlab-31','/tmp/console.log','2026-12-01T20:11:02.733Z','2026-12-01T20:11:02.733Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(32,11,1,NULL,'done',1,'qemu:///system','rlab-32','/tmp/console.log','2026-12-01T20:11:02.734Z','2026-12-01T20:11:02.734Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(33,11,2,NULL,'done',1,'qemu:///system','rlab-33','/tmp/console.log','2026-12-01T20:11:02.734Z','2026-12-01T20:11:02.734Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(34,12,0,NULL,'done',1,'qemu:///system','rlab-34','/tmp/console.log','2026-12-01T20:11:02.734Z','2026-12-01T20:11:02.734Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(35,12,1,NULL,'done',1,'qemu:///system','rlab-35','/tmp/console.log','2026-12-01T20:11:02.734Z','2026-12-01T20:11:02.735Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(36,12,2,NULL,'done',1,'qemu:///system','rlab-36','/tmp/console.log','2026-12-01T20:11:02.735Z','2026-12-01T20:11:02.735Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(37,13,0,NULL,'done',1,'qemu:///system','rlab-37','/tmp/console.log','2026-12-01T20:11:02.735Z','2026-12-01T20:11:02.736Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(38,13,1,NULL,'done',1,'qemu:///system','rlab-38','/tmp/console.log','2026-12-01T20:11:02.736Z','2026-12-01T20:11:02.736Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(39,13,2,NULL,'done',1,'qemu:///system','rlab-39','/tmp/console.log','2026-12-01T20:11:02.736Z','2026-12-01T20:11:02.736Z','k-6.126.12.57+rlab1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(40,14,0,NULL,'done',1,'qemu:///system','rlab-40','/tmp/console.log','2026-12-01T20:11:02.740Z','2026-12-01T20:11:02.740Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(41,14,1,NULL,'done',1,'qemu:///system','rlab-41','/tmp/console.log','2026-12-01T20:11:02.741Z','2026-12-01T20:11:02.741Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(42,14,2,NULL,'done',1,'qemu:///system','rlab-42','/tmp/console.log','2026-12-01T20:11:02.741Z','2026-12-01T20:11:02.741Z','k-6.12+inline-inactivation6.12.57+rlab-inline1111111111111111111111111111111111111111','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(43,15,0,NULL,'done',1,'qemu:///system','rlab-43','/tmp/console.log','2026-12-01T20:11:02.742Z','2026-12-01T20:11:02.742Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(44,15,1,NULL,'done',1,'qemu:///system','rlab-44','/tmp/console.log','2026-12-01T20:11:02.742Z','2026-12-01T20:11:02.742Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(45,15,2,NULL,'done',1,'qemu:///system','rlab-45','/tmp/console.log','2026-12-01T20:11:02.742Z','2026-12-01T20:11:02.742Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(46,16,0,NULL,'done',1,'qemu:///system','rlab-46','/tmp/console.log','2026-12-01T20:11:02.742Z','2026-12-01T20:11:02.743Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(47,16,1,NULL,'done',1,'qemu:///system','rlab-47','/tmp/console.log','2026-12-01T20:11:02.743Z','2026-12-01T20:11:02.743Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(48,16,2,NULL,'done',1,'qemu:///system','rlab-48','/tmp/console.log','2026-12-01T20:11:02.743Z','2026-12-01T20:11:02.743Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(49,17,0,NULL,'done',1,'qemu:///system','rlab-49','/tmp/console.log','2026-12-01T20:11:02.744Z','2026-12-01T20:11:02.744Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(50,17,1,NULL,'done',1,'qemu:///system','rlab-50','/tmp/console.log','2026-12-01T20:11:02.744Z','2026-12-01T20:11:02.744Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(51,17,2,NULL,'done',1,'qemu:///system','rlab-51','/tmp/console.log','2026-12-01T20:11:02.744Z','2026-12-01T20:11:02.748Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(52,18,0,NULL,'done',1,'qemu:///system','rlab-52','/tmp/console.log','2026-12-01T20:11:02.748Z','2026-12-01T20:11:02.749Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(53,18,1,NULL,'done',1,'qemu:///system','rlab-53','/tmp/console.log','2026-12-01T20:11:02.749Z','2026-12-01T20:11:02.749Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(54,18,2,NULL,'done',1,'qemu:///system','rlab-54','/tmp/console.log','2026-12-01T20:11:02.749Z','2026-12-01T20:11:02.749Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(55,19,0,NULL,'done',1,'qemu:///system','rlab-55','/tmp/console.log','2026-12-01T20:11:02.750Z','2026-12-01T20:11:02.750Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(56,19,1,NULL,'done',1,'qemu:///system','rlab-56','/tmp/console.log','2026-12-01T20:11:02.750Z','2026-12-01T20:11:02.750Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(57,19,2,NULL,'done',1,'qemu:///system','rlab-57','/tmp/console.log','2026-12-01T20:11:02.750Z','2026-12-01T20:11:02.750Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(58,20,0,NULL,'done',1,'qemu:///system','rlab-58','/tmp/console.log','2026-12-01T20:11:02.751Z','2026-12-01T20:11:02.751Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(59,20,1,NULL,'done',1,'qemu:///system','rlab-59','/tmp/console.log','2026-12-01T20:11:02.751Z','2026-12-01T20:11:02.751Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(60,20,2,NULL,'done',1,'qemu:///system','rlab-60','/tmp/console.log','2026-12-01T20:11:02.751Z','2026-12-01T20:11:02.751Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(61,21,0,NULL,'done',1,'qemu:///system','rlab-61','/tmp/console.log','2026-12-01T20:11:02.752Z','2026-12-01T20:11:02.752Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(62,21,1,NULL,'done',1,'qemu:///system','rlab-62','/tmp/console.log','2026-12-01T20:11:02.752Z','2026-12-01T20:11:02.752Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(63,21,2,NULL,'done',1,'qemu:///system','rlab-63','/tmp/console.log','2026-12-01T20:11:02.752Z','2026-12-01T20:11:02.764Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(64,22,0,NULL,'done',1,'qemu:///system','rlab-64','/tmp/console.log','2026-12-01T20:11:02.764Z','2026-12-01T20:11:02.765Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(65,22,1,NULL,'pending',0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO boots VALUES(66,22,2,NULL,'done',1,'qemu:///system','rlab-66','/tmp/console.log','2026-12-01T20:11:02.765Z','2026-12-01T20:11:02.765Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(67,23,0,NULL,'done',1,'qemu:///system','rlab-67','/tmp/console.log','2026-12-01T20:11:02.766Z','2026-12-01T20:11:02.766Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(68,23,1,NULL,'done',1,'qemu:///system','rlab-68','/tmp/console.log','2026-12-01T20:11:02.766Z','2026-12-01T20:11:02.766Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(69,23,2,NULL,'done',1,'qemu:///system','rlab-69','/tmp/console.log','2026-12-01T20:11:02.766Z','2026-12-01T20:11:02.766Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(70,24,0,NULL,'done',1,'qemu:///system','rlab-70','/tmp/console.log','2026-12-01T20:11:02.766Z','2026-12-01T20:11:02.766Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(71,24,1,NULL,'done',1,'qemu:///system','rlab-71','/tmp/console.log','2026-12-01T20:11:02.767Z','2026-12-01T20:11:02.767Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(72,24,2,NULL,'failed',1,'qemu:///system','rlab-72','/tmp/console.log','2026-12-01T20:11:02.767Z','2026-12-01T20:11:02.767Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(73,25,0,NULL,'done',1,'qemu:///system','rlab-73','/tmp/console.log','2026-12-01T20:11:02.768Z','2026-12-01T20:11:02.768Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',12.5);
INSERT INTO boots VALUES(74,25,1,NULL,'done',1,'qemu:///system','rlab-74','/tmp/console.log','2026-12-01T20:11:02.768Z','2026-12-01T20:11:02.768Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(75,25,2,NULL,'done',1,'qemu:///system','rlab-75','/tmp/console.log','2026-12-01T20:11:02.768Z','2026-12-01T20:11:02.768Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(76,26,0,NULL,'done',1,'qemu:///system','rlab-76','/tmp/console.log','2026-12-01T20:11:02.768Z','2026-12-01T20:11:02.769Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(77,26,1,NULL,'done',1,'qemu:///system','rlab-77','/tmp/console.log','2026-12-01T20:11:02.769Z','2026-12-01T20:11:02.769Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(78,26,2,NULL,'done',1,'qemu:///system','rlab-78','/tmp/console.log','2026-12-01T20:11:02.769Z','2026-12-01T20:11:02.769Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(79,27,0,NULL,'done',1,'qemu:///system','rlab-79','/tmp/console.log','2026-12-01T20:11:02.769Z','2026-12-01T20:11:02.770Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(80,27,1,NULL,'done',1,'qemu:///system','rlab-80','/tmp/console.log','2026-12-01T20:11:02.770Z','2026-12-01T20:11:02.770Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(81,27,2,NULL,'done',1,'qemu:///system','rlab-81','/tmp/console.log','2026-12-01T20:11:02.770Z','2026-12-01T20:11:02.770Z','k-6.126.12.57+rlab2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(82,28,0,NULL,'done',1,'qemu:///system','rlab-82','/tmp/console.log','2026-12-01T20:11:02.770Z','2026-12-01T20:11:02.770Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(83,28,1,NULL,'done',1,'qemu:///system','rlab-83','/tmp/console.log','2026-12-01T20:11:02.770Z','2026-12-01T20:11:02.771Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
INSERT INTO boots VALUES(84,28,2,NULL,'done',1,'qemu:///system','rlab-84','/tmp/console.log','2026-12-01T20:11:02.771Z','2026-12-01T20:11:02.771Z','k-6.12+inline-inactivation6.12.57+rlab-inline2222222222222222222222222222222222222222','img-1',65536,2,'6.12.57+rlab-inline','0.1.0',1000000,'[]',NULL);
CREATE TABLE passes (
  id            INTEGER PRIMARY KEY,
  boot_id       INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,
  pass          INTEGER NOT NULL,
  loops         INTEGER NOT NULL,
  failures      INTEGER NOT NULL,
  duration_s    REAL NOT NULL,
  lpm           REAL NOT NULL,
  latency_json  TEXT NOT NULL,
  counters_json TEXT NOT NULL,
  -- version 4: XFS placement of the load's inodes (NULL on other filesystems)
  inode_ags     INTEGER,
  agcount       INTEGER,
  inodes_seen   INTEGER,
  -- version 5: where the pass's time went (protocol Attribution object; NULL when off)
  attribution_json TEXT,
  UNIQUE (boot_id, pass)
);
INSERT INTO passes VALUES(1,1,0,33,0,20.0,99.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(2,1,1,33,0,20.0,100.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(3,1,2,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(4,2,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(5,2,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(6,2,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(7,3,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(8,3,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(9,3,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(10,4,0,33,0,20.0,99.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(11,4,1,33,0,20.0,100.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(12,4,2,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(13,5,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(14,5,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(15,5,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(16,6,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(17,6,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(18,6,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(19,7,0,33,0,20.0,99.247500000000002272,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(20,7,1,33,0,20.0,100.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(21,7,2,34,0,20.0,101.25249999999999772,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(22,8,0,33,0,20.0,99.742499999999992606,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(23,8,1,34,0,20.0,100.75,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(24,8,2,34,0,20.0,101.75750000000000738,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(25,9,0,33,0,20.0,100.23749999999999715,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(26,9,1,34,0,20.0,101.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(27,9,2,34,0,20.0,102.26250000000000284,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(28,10,0,33,0,20.0,99.247500000000002272,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(29,10,1,33,0,20.0,100.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(30,10,2,34,0,20.0,101.25249999999999772,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(31,11,0,33,0,20.0,99.742499999999992606,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(32,11,1,34,0,20.0,100.75,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(33,11,2,34,0,20.0,101.75750000000000738,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(34,12,0,33,0,20.0,100.23749999999999715,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(35,12,1,34,0,20.0,101.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(36,12,2,34,0,20.0,102.26250000000000284,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(37,13,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(38,13,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(39,13,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(40,14,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(41,14,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(42,14,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(43,15,0,33,0,20.0,100.48499999999999942,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(44,15,1,34,0,20.0,101.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(45,15,2,34,0,20.0,102.51500000000000056,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(46,16,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(47,16,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(48,16,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(49,17,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(50,17,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(51,17,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(52,18,0,33,0,20.0,100.48499999999999942,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(53,18,1,34,0,20.0,101.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(54,18,2,34,0,20.0,102.51500000000000056,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(55,19,0,33,0,20.0,99.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(56,19,1,33,0,20.0,100.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(57,19,2,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(58,20,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(59,20,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(60,20,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(61,21,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(62,21,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(63,21,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(64,22,0,33,0,20.0,99.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(65,22,1,33,0,20.0,100.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(66,22,2,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(67,23,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(68,23,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(69,23,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(70,24,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(71,24,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(72,24,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(73,25,0,33,0,20.0,99.247500000000002272,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(74,25,1,33,0,20.0,100.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(75,25,2,34,0,20.0,101.25249999999999772,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(76,26,0,33,0,20.0,99.742499999999992606,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(77,26,1,34,0,20.0,100.75,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(78,26,2,34,0,20.0,101.75750000000000738,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(79,27,0,33,0,20.0,100.23749999999999715,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(80,27,1,34,0,20.0,101.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(81,27,2,34,0,20.0,102.26250000000000284,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(82,28,0,33,0,20.0,99.247500000000002272,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(83,28,1,33,0,20.0,100.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(84,28,2,34,0,20.0,101.25249999999999772,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(85,29,0,33,0,20.0,99.742499999999992606,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(86,29,1,34,0,20.0,100.75,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(87,29,2,34,0,20.0,101.75750000000000738,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(88,30,0,33,0,20.0,100.23749999999999715,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(89,30,1,34,0,20.0,101.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(90,30,2,34,0,20.0,102.26250000000000284,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(91,31,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(92,31,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(93,31,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(94,32,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(95,32,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(96,32,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(97,33,0,33,0,20.0,100.48499999999999942,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(98,33,1,34,0,20.0,101.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(99,33,2,34,0,20.0,102.51500000000000056,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(100,34,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(101,34,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(102,34,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(103,35,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(104,35,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(105,35,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(106,36,0,33,0,20.0,100.48499999999999942,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(107,36,1,34,0,20.0,101.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(108,36,2,34,0,20.0,102.51500000000000056,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(109,37,0,33,0,20.0,99.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(110,37,1,33,0,20.0,100.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(111,37,2,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(112,38,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(113,38,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(114,38,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(115,39,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(116,39,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(117,39,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(118,40,0,33,0,20.0,99.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(119,40,1,33,0,20.0,100.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(120,40,2,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(121,41,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(122,41,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(123,41,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(124,42,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(125,42,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(126,42,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":5},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(127,43,0,29,0,20.0,87.367499999999992613,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(128,43,1,29,0,20.0,88.249999999999999998,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(129,43,2,30,0,20.0,89.132500000000007391,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(130,44,0,29,0,20.0,87.862499999999997156,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(131,44,1,30,0,20.0,88.75,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(132,44,2,30,0,20.0,89.637500000000002843,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(133,45,0,29,0,20.0,88.357500000000001707,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(134,45,1,30,0,20.0,89.250000000000000001,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(135,45,2,30,0,20.0,90.142499999999998296,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(136,46,0,33,0,20.0,99.247500000000002272,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(137,46,1,33,0,20.0,100.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(138,46,2,34,0,20.0,101.25249999999999772,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(139,47,0,33,0,20.0,99.742499999999992606,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(140,47,1,34,0,20.0,100.75,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(141,47,2,34,0,20.0,101.75750000000000738,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(142,48,0,33,0,20.0,100.23749999999999715,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(143,48,1,34,0,20.0,101.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(144,48,2,34,0,20.0,102.26250000000000284,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(145,49,0,29,0,20.0,87.61499999999999488,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(146,49,1,30,0,20.0,88.500000000000000003,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(147,49,2,30,0,20.0,89.385000000000005117,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(148,50,0,29,0,20.0,88.109999999999999431,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(149,50,1,30,0,20.0,89.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(150,50,2,30,0,20.0,89.89000000000000057,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(151,51,0,30,0,20.0,88.605000000000003982,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(152,51,1,30,0,20.0,89.499999999999999998,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(153,51,2,30,0,20.0,90.394999999999996022,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(154,52,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(155,52,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(156,52,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(157,53,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(158,53,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(159,53,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(160,54,0,33,0,20.0,100.48499999999999942,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(161,54,1,34,0,20.0,101.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(162,54,2,34,0,20.0,102.51500000000000056,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(163,55,0,29,0,20.0,87.120000000000004545,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(164,55,1,29,0,20.0,88.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(165,55,2,30,0,20.0,88.879999999999995449,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(166,56,0,29,0,20.0,87.61499999999999488,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(167,56,1,30,0,20.0,88.500000000000000003,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(168,56,2,30,0,20.0,89.385000000000005117,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(169,57,0,29,0,20.0,88.109999999999999431,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(170,57,1,30,0,20.0,89.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(171,57,2,30,0,20.0,89.89000000000000057,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(172,58,0,33,0,20.0,99.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(173,58,1,33,0,20.0,100.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(174,58,2,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(175,59,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(176,59,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(177,59,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(178,60,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(179,60,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(180,60,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(181,61,0,29,0,20.0,87.367499999999992613,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(182,61,1,29,0,20.0,88.249999999999999998,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(183,61,2,30,0,20.0,89.132500000000007391,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(184,62,0,29,0,20.0,87.862499999999997156,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(185,62,1,30,0,20.0,88.75,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(186,62,2,30,0,20.0,89.637500000000002843,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(187,63,0,29,0,20.0,88.357500000000001707,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(188,63,1,30,0,20.0,89.250000000000000001,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(189,63,2,30,0,20.0,90.142499999999998296,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(190,64,0,33,0,20.0,99.247500000000002272,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(191,64,1,33,0,20.0,100.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(192,64,2,34,0,20.0,101.25249999999999772,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(193,66,0,33,0,20.0,100.23749999999999715,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(194,66,1,34,0,20.0,101.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(195,66,2,34,0,20.0,102.26250000000000284,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(196,67,0,29,0,20.0,87.61499999999999488,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(197,67,1,30,0,20.0,88.500000000000000003,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(198,67,2,30,0,20.0,89.385000000000005117,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(199,68,0,29,0,20.0,88.109999999999999431,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(200,68,1,30,0,20.0,89.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(201,68,2,30,0,20.0,89.89000000000000057,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(202,69,0,30,0,20.0,88.605000000000003982,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(203,69,1,30,0,20.0,89.499999999999999998,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(204,69,2,30,0,20.0,90.394999999999996022,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(205,70,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(206,70,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(207,70,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(208,71,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(209,71,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(210,71,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(211,73,0,29,0,20.0,87.120000000000004545,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(212,73,1,30,0,20.0,90.0,'{"bounds_s":[0.1,1],"counts":[20,9,1],"sum_s":4.5}','{"tracepoints":{"xfs:xfs_inodegc_throttle":3},"xfs_stats":{"ig.0":10}}',2,4,12,'{"mode":"counts","locks":[]}');
INSERT INTO passes VALUES(213,73,2,30,0,20.0,88.879999999999995449,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(214,74,0,29,0,20.0,87.61499999999999488,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(215,74,1,30,0,20.0,88.500000000000000003,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(216,74,2,30,0,20.0,89.385000000000005117,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(217,75,0,29,0,20.0,88.109999999999999431,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(218,75,1,30,0,20.0,89.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(219,75,2,30,0,20.0,89.89000000000000057,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(220,76,0,33,0,20.0,99.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(221,76,1,33,0,20.0,100.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(222,76,2,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(223,77,0,33,0,20.0,99.495000000000004547,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(224,77,1,34,0,20.0,100.49999999999999999,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(225,77,2,34,0,20.0,101.50499999999999544,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(226,78,0,33,0,20.0,99.989999999999994882,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(227,78,1,34,0,20.0,101.0,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(228,78,2,34,0,20.0,102.01000000000000512,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(229,79,0,29,0,20.0,87.367499999999992613,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(230,79,1,29,0,20.0,88.249999999999999998,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(231,79,2,30,0,20.0,89.132500000000007391,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(232,80,0,29,0,20.0,87.862499999999997156,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(233,80,1,30,0,20.0,88.75,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(234,80,2,30,0,20.0,89.637500000000002843,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(235,81,0,29,0,20.0,88.357500000000001707,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(236,81,1,30,0,20.0,89.250000000000000001,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(237,81,2,30,0,20.0,90.142499999999998296,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(238,82,0,33,0,20.0,99.247500000000002272,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(239,82,1,33,0,20.0,100.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(240,82,2,34,0,20.0,101.25249999999999772,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":100,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(241,83,0,33,0,20.0,99.742499999999992606,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(242,83,1,34,0,20.0,100.75,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(243,83,2,34,0,20.0,101.75750000000000738,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":101,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(244,84,0,33,0,20.0,100.23749999999999715,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(245,84,1,34,0,20.0,101.25,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
INSERT INTO passes VALUES(246,84,2,34,0,20.0,102.26250000000000284,'{"bounds_s":[0.1],"counts":[1,0]}','{"tracepoints":{"xfs:xfs_inodegc_queue":102,"xfs:xfs_inodegc_throttle":9},"xfs_stats":{"ig.0":812,"vnodes.1":40},"cpu":{"user":1200,"system":800,"idle":30},"ctxt":52000,"forks":3100}',NULL,NULL,NULL,NULL);
CREATE TABLE samples (
  id            INTEGER PRIMARY KEY,
  boot_id       INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,
  pass          INTEGER NOT NULL,
  t_s           REAL NOT NULL,
  loops         INTEGER NOT NULL,
  failures      INTEGER NOT NULL,
  counters_json TEXT NOT NULL,
  -- version 3: the host side of the sample's interval (NULL where not read; docs/store.md)
  host_s        REAL,
  host_busy     REAL,
  host_steal    REAL,
  host_mhz      REAL,
  vcpu_share    REAL
);
INSERT INTO samples VALUES(1,73,0,1.0,3,0,'{"tracepoints":{"xfs:xfs_inodegc_queue":4}}',NULL,NULL,NULL,NULL,NULL);
INSERT INTO samples VALUES(2,73,0,2.0,7,0,'{"tracepoints":{"xfs:xfs_inodegc_queue":4}}',1.0100000000000000088,0.5,0.020000000000000000416,2400.0,0.93000000000000004884);
CREATE TABLE results (
  boot_id               INTEGER PRIMARY KEY REFERENCES boots(id) ON DELETE CASCADE,
  score                 REAL NOT NULL,
  failures              INTEGER NOT NULL,
  failure_examples_json TEXT NOT NULL,
  recorded_at           TEXT NOT NULL,
  env_host              TEXT NOT NULL,
  env_accel             TEXT NOT NULL,
  env_cpu_model         TEXT NOT NULL,
  env_cpu_options       TEXT NOT NULL,
  env_memory_mib        INTEGER NOT NULL,
  env_vcpus             INTEGER NOT NULL,
  env_page_size         INTEGER NOT NULL,
  env_kernel_release    TEXT NOT NULL,
  env_config_sha256     TEXT NOT NULL,
  env_fs                TEXT NOT NULL,
  env_mkfs_options      TEXT NOT NULL,
  env_mount_options     TEXT NOT NULL,
  env_agent_version     TEXT NOT NULL,
  env_workload          TEXT NOT NULL,
  env_copies            INTEGER NOT NULL,
  env_passes            INTEGER NOT NULL,
  env_duration_s        REAL NOT NULL,
  env_locale            TEXT NOT NULL,
  -- version 4: how the load ran (rows of older stores: how rlab ran it then)
  env_layout            TEXT NOT NULL DEFAULT 'per-copy',
  env_input             TEXT NOT NULL DEFAULT 'rlab-generated (before schema 4)',
  env_drop_caches       INTEGER NOT NULL DEFAULT 1,
  env_runner            TEXT NOT NULL DEFAULT 'rlab',
  env_disk              TEXT NOT NULL DEFAULT 'virtio',
  -- version 5: what the guest collected besides the score (rows of older stores: nothing)
  env_attribution       TEXT NOT NULL DEFAULT 'off'
);
INSERT INTO results VALUES(1,100.0,0,'[]','2026-12-01T20:11:02.710Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(2,100.49999999999999999,0,'[]','2026-12-01T20:11:02.711Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(3,101.0,0,'[]','2026-12-01T20:11:02.711Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(4,100.0,0,'[]','2026-12-01T20:11:02.711Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(5,100.49999999999999999,0,'[]','2026-12-01T20:11:02.712Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(6,101.0,0,'[]','2026-12-01T20:11:02.712Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(7,100.25,0,'[]','2026-12-01T20:11:02.717Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(8,100.75,0,'[]','2026-12-01T20:11:02.717Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(9,101.25,0,'[]','2026-12-01T20:11:02.717Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(10,100.25,0,'[]','2026-12-01T20:11:02.718Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(11,100.75,0,'[]','2026-12-01T20:11:02.718Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(12,101.25,0,'[]','2026-12-01T20:11:02.718Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(13,100.49999999999999999,0,'[]','2026-12-01T20:11:02.719Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(14,101.0,0,'[]','2026-12-01T20:11:02.719Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(15,101.49999999999999999,0,'[]','2026-12-01T20:11:02.719Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(16,100.49999999999999999,0,'[]','2026-12-01T20:11:02.720Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(17,101.0,0,'[]','2026-12-01T20:11:02.720Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(18,101.49999999999999999,0,'[]','2026-12-01T20:11:02.724Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(19,100.0,0,'[]','2026-12-01T20:11:02.725Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(20,100.49999999999999999,0,'[]','2026-12-01T20:11:02.725Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(21,101.0,0,'[]','2026-12-01T20:11:02.726Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(22,100.0,0,'[]','2026-12-01T20:11:02.726Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(23,100.49999999999999999,0,'[]','2026-12-01T20:11:02.726Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(24,101.0,0,'[]','2026-12-01T20:11:02.727Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(25,100.25,0,'[]','2026-12-01T20:11:02.727Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(26,100.75,0,'[]','2026-12-01T20:11:02.727Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(27,101.25,0,'[]','2026-12-01T20:11:02.728Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(28,100.25,0,'[]','2026-12-01T20:11:02.728Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(29,100.75,0,'[]','2026-12-01T20:11:02.732Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(30,101.25,0,'[]','2026-12-01T20:11:02.733Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(31,100.49999999999999999,0,'[]','2026-12-01T20:11:02.733Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(32,101.0,0,'[]','2026-12-01T20:11:02.734Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(33,101.49999999999999999,0,'[]','2026-12-01T20:11:02.734Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(34,100.49999999999999999,0,'[]','2026-12-01T20:11:02.734Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(35,101.0,0,'[]','2026-12-01T20:11:02.735Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(36,101.49999999999999999,0,'[]','2026-12-01T20:11:02.735Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(37,100.0,0,'[]','2026-12-01T20:11:02.736Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(38,100.49999999999999999,0,'[]','2026-12-01T20:11:02.736Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(39,101.0,0,'[]','2026-12-01T20:11:02.736Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(40,100.0,0,'[]','2026-12-01T20:11:02.740Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(41,100.49999999999999999,0,'[]','2026-12-01T20:11:02.741Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(42,101.0,0,'[]','2026-12-01T20:11:02.741Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(43,88.249999999999999998,0,'[]','2026-12-01T20:11:02.742Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(44,88.75,0,'[]','2026-12-01T20:11:02.742Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(45,89.250000000000000001,0,'[]','2026-12-01T20:11:02.742Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(46,100.25,0,'[]','2026-12-01T20:11:02.743Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(47,100.75,0,'[]','2026-12-01T20:11:02.743Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(48,101.25,0,'[]','2026-12-01T20:11:02.743Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(49,88.500000000000000003,0,'[]','2026-12-01T20:11:02.744Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(50,89.0,0,'[]','2026-12-01T20:11:02.744Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(51,89.499999999999999998,0,'[]','2026-12-01T20:11:02.748Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(52,100.49999999999999999,0,'[]','2026-12-01T20:11:02.749Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(53,101.0,0,'[]','2026-12-01T20:11:02.749Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(54,101.49999999999999999,0,'[]','2026-12-01T20:11:02.749Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(55,88.0,0,'[]','2026-12-01T20:11:02.750Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(56,88.500000000000000003,0,'[]','2026-12-01T20:11:02.750Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(57,89.0,0,'[]','2026-12-01T20:11:02.750Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(58,100.0,0,'[]','2026-12-01T20:11:02.751Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(59,100.49999999999999999,0,'[]','2026-12-01T20:11:02.751Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(60,101.0,0,'[]','2026-12-01T20:11:02.751Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(61,88.249999999999999998,0,'[]','2026-12-01T20:11:02.752Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(62,88.75,0,'[]','2026-12-01T20:11:02.752Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(63,89.250000000000000001,0,'[]','2026-12-01T20:11:02.764Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(64,100.25,0,'[]','2026-12-01T20:11:02.765Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(66,101.25,0,'[]','2026-12-01T20:11:02.765Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(67,88.500000000000000003,0,'[]','2026-12-01T20:11:02.766Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(68,89.0,0,'[]','2026-12-01T20:11:02.766Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(69,89.499999999999999998,0,'[]','2026-12-01T20:11:02.766Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(70,100.49999999999999999,0,'[]','2026-12-01T20:11:02.766Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(71,101.0,0,'[]','2026-12-01T20:11:02.767Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(73,88.0,0,'[]','2026-12-01T20:11:02.768Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,30.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(74,88.500000000000000003,0,'[]','2026-12-01T20:11:02.768Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,30.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(75,89.0,0,'[]','2026-12-01T20:11:02.768Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,30.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(76,100.0,0,'[]','2026-12-01T20:11:02.768Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(77,100.49999999999999999,0,'[]','2026-12-01T20:11:02.769Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(78,101.0,0,'[]','2026-12-01T20:11:02.769Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(79,88.249999999999999998,0,'[]','2026-12-01T20:11:02.770Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(80,88.75,0,'[]','2026-12-01T20:11:02.770Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(81,89.250000000000000001,0,'[]','2026-12-01T20:11:02.770Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab','9b1d77e3','xfs','["-d","agcount=4"]','','0.1.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(82,100.25,0,'[]','2026-12-01T20:11:02.770Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(83,100.75,0,'[]','2026-12-01T20:11:02.771Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
INSERT INTO results VALUES(84,101.25,0,'[]','2026-12-01T20:11:02.771Z','qemu:///system','tcg','max','pauth=off',1024,2,65536,'6.12.57+rlab-inline','c2f1e0aa','xfs','["-d","agcount=4"]','','0.2.0','shell1',2,3,20.0,'C','shared','',0,'rlab','virtio','off');
CREATE TABLE failures (
  id           INTEGER PRIMARY KEY,
  boot_id      INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,
  phase        TEXT NOT NULL,
  message      TEXT NOT NULL,
  console_tail TEXT NOT NULL,
  recorded_at  TEXT NOT NULL
);
INSERT INTO failures VALUES(1,72,'boot','guest did not say hello within 300 s','[  0.0] Booting','2026-12-01T20:11:02.767Z');
CREATE TABLE cell_methods (
  cell_id       INTEGER PRIMARY KEY REFERENCES cells(id) ON DELETE CASCADE,
  warmup_passes INTEGER NOT NULL
);
INSERT INTO cell_methods VALUES(1,0);
INSERT INTO cell_methods VALUES(2,0);
INSERT INTO cell_methods VALUES(3,0);
INSERT INTO cell_methods VALUES(4,0);
INSERT INTO cell_methods VALUES(5,0);
INSERT INTO cell_methods VALUES(6,0);
INSERT INTO cell_methods VALUES(7,0);
INSERT INTO cell_methods VALUES(8,0);
INSERT INTO cell_methods VALUES(9,0);
INSERT INTO cell_methods VALUES(10,0);
INSERT INTO cell_methods VALUES(11,0);
INSERT INTO cell_methods VALUES(12,0);
INSERT INTO cell_methods VALUES(13,0);
INSERT INTO cell_methods VALUES(14,0);
INSERT INTO cell_methods VALUES(15,0);
INSERT INTO cell_methods VALUES(16,0);
INSERT INTO cell_methods VALUES(17,0);
INSERT INTO cell_methods VALUES(18,0);
INSERT INTO cell_methods VALUES(19,0);
INSERT INTO cell_methods VALUES(20,0);
INSERT INTO cell_methods VALUES(21,0);
INSERT INTO cell_methods VALUES(22,0);
INSERT INTO cell_methods VALUES(23,0);
INSERT INTO cell_methods VALUES(24,0);
INSERT INTO cell_methods VALUES(25,0);
INSERT INTO cell_methods VALUES(26,0);
INSERT INTO cell_methods VALUES(27,0);
INSERT INTO cell_methods VALUES(28,0);
CREATE TABLE boot_host (
  boot_id        INTEGER PRIMARY KEY REFERENCES boots(id) ON DELETE CASCADE,
  cpus           INTEGER NOT NULL,
  load1_before   REAL NOT NULL,
  load1_after    REAL NOT NULL,
  busy_fraction  REAL NOT NULL,
  steal_fraction REAL NOT NULL,
  seconds        REAL NOT NULL,
  vcpu_pins      TEXT NOT NULL,
  emulator_pin   TEXT NOT NULL
);
INSERT INTO boot_host VALUES(73,2,0.5,1.5,0.59999999999999997779,0.010000000000000000208,70.0,'["0","1"]','0-1');
CREATE TABLE noise_reports (
  id               INTEGER PRIMARY KEY,
  run_id           INTEGER REFERENCES runs(id) ON DELETE SET NULL,
  cell_key         TEXT NOT NULL,
  control_key      TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  boots            INTEGER NOT NULL,
  boot_rel_stddev  REAL,
  pass_rel_stddev  REAL,
  drift_per_hour   REAL,
  drift_ci_low     REAL,
  drift_ci_high    REAL,
  load_correlation REAL,
  mde_4            REAL,
  mde_8            REAL,
  mde_16           REAL,
  report_json      TEXT NOT NULL,
  vcpu_share_mean        REAL,  -- version 3
  vcpu_share_correlation REAL   -- version 3
);
INSERT INTO noise_reports VALUES(1,13,'6.12/xfs-agcount4/2vcpu/shell1','6.12/xfs-agcount4/2vcpu/shell1','2026-11-30T09:00:00.000Z',3,0.050000000000000002775,0.020000000000000000416,NULL,NULL,NULL,-0.29999999999999998889,0.11999999999999999555,0.080000000000000001665,0.050000000000000002775,'{"figures":{"mean_vcpu_share":0.9,"vcpu_share_correlation":0.4,"mean_host_steal":0.02,"host_steal_correlation":-0.5}}',0.9000000000000000222,NULL);
CREATE TABLE bisect_sessions (
  id INTEGER PRIMARY KEY,
  created_at TEXT NOT NULL,
  tree TEXT NOT NULL,
  good_ref TEXT NOT NULL, bad_ref TEXT NOT NULL,
  good_commit TEXT NOT NULL, bad_commit TEXT NOT NULL,
  cell_id TEXT NOT NULL,
  matrix_path TEXT NOT NULL, matrix_text TEXT NOT NULL,
  direction TEXT NOT NULL,
  alpha REAL NOT NULL, min_effect REAL NOT NULL,
  initial_boots INTEGER NOT NULL, cap_boots INTEGER NOT NULL,
  commit_count INTEGER NOT NULL,
  status TEXT NOT NULL, message TEXT NOT NULL DEFAULT '',
  first_bad TEXT NOT NULL DEFAULT '', candidates_json TEXT NOT NULL DEFAULT '[]');
INSERT INTO bisect_sessions VALUES(1,'2026-12-01T20:11:02.777Z','/src/linux','v1','v2','1111111111111111111111111111111111111111','2222222222222222222222222222222222222222','6.12/xfs-agcount4/2vcpu/shell1','/m.yaml',replace('kernels:\n  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}\n  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}\naxes:\n  kernel: ["6.12", 6.12+inline-inactivation]\n  filesystem: [{fs: xfs, mkfs: [[-d, agcount=4]]}]\n  vcpus: [2]\n  workload: [{type: shell1, copies: vcpus, passes: 3, duration_s: 20}]\n  repeats: 3\n','\n',char(10)),'regression',0.010000000000000000208,0.020000000000000000416,3,12,5,'found','first bad commit 333333333333','3333333333333333333333333333333333333333','[]');
CREATE TABLE bisect_batch_commits (
  session_id INTEGER NOT NULL REFERENCES bisect_sessions(id),
  run_id INTEGER NOT NULL REFERENCES runs(id),
  commit_sha TEXT NOT NULL,
  purpose TEXT NOT NULL,
  PRIMARY KEY (session_id, run_id, commit_sha));
INSERT INTO bisect_batch_commits VALUES(1,13,'1111111111111111111111111111111111111111','ends');
INSERT INTO bisect_batch_commits VALUES(1,13,'2222222222222222222222222222222222222222','ends');
CREATE TABLE bisect_steps (
  session_id INTEGER NOT NULL REFERENCES bisect_sessions(id),
  seq INTEGER NOT NULL,
  commit_sha TEXT NOT NULL,
  result TEXT NOT NULL CHECK (result IN ('good', 'bad', 'skip')),
  samples INTEGER NOT NULL, median REAL NOT NULL, change_vs_good REAL NOT NULL,
  p_vs_good REAL NOT NULL, p_vs_bad REAL NOT NULL, reason TEXT NOT NULL,
  answered_at TEXT NOT NULL,
  good_median REAL NOT NULL DEFAULT 0, bad_median REAL NOT NULL DEFAULT 0,
  reference_samples INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (session_id, commit_sha));
INSERT INTO bisect_steps VALUES(1,1,'3333333333333333333333333333333333333333','bad',3,88.0,-0.11999999999999999555,0.0010000000000000000208,0.59999999999999997779,'like bad','2026-12-01T20:11:02.777Z',100.0,88.0,6);
CREATE INDEX samples_boot ON samples(boot_id, pass, t_s);
CREATE INDEX noise_reports_cell ON noise_reports(cell_key, created_at);
CREATE INDEX cells_run ON cells(run_id);
CREATE INDEX cells_key ON cells(cell_key);
CREATE INDEX boots_cell ON boots(cell_id, status);
CREATE INDEX failures_boot ON failures(boot_id);
CREATE VIEW boot_results AS
SELECT b.id AS boot_id, c.run_id, c.cell_key, c.kernel, c.patchset, c.page_size, c.fs,
       c.mkfs_label, c.mkfs_options, c.vcpus, c.workload, c.copies, c.passes, c.duration_s,
       b.repeat, b.order_index, b.status, b.host_uri, b.kernel_key, b.image_key,
       k.source_commit, k.config_sha256,
       b.guest_page_size, b.guest_kernel_release, b.agent_version,
       r.score, r.recorded_at,
       (SELECT COALESCE(SUM(p.loops), 0) FROM passes p WHERE p.boot_id = b.id) AS loops,
       (SELECT COALESCE(SUM(p.failures), 0) FROM passes p WHERE p.boot_id = b.id) AS loop_failures,
       (SELECT SUM(json_extract(p.counters_json, '$.tracepoints."xfs:xfs_inodegc_throttle"'))
          FROM passes p WHERE p.boot_id = b.id) AS inodegc_throttle
FROM boots b
JOIN cells c ON c.id = b.cell_id
LEFT JOIN kernels k ON k.kernel_key = b.kernel_key
LEFT JOIN results r ON r.boot_id = b.id;
CREATE VIEW latest_cell_results AS
SELECT * FROM boot_results br
WHERE br.score IS NOT NULL
  AND br.boot_id = (SELECT b2.boot_id FROM boot_results b2
                    WHERE b2.cell_key = br.cell_key AND b2.score IS NOT NULL
                    ORDER BY b2.recorded_at DESC, b2.boot_id DESC LIMIT 1);
COMMIT;
PRAGMA user_version=5;
